import { Type, type Static } from '@sinclair/typebox';
import { CursorParam, NextCursor } from '../../platform/cursor.js';
import type { LedgerBucket } from '../rows.js';
import { DateTime } from '../../platform/schemas.js';
import { labeledLedgerEventExample, ledgerEventExample, ledgerEventPageExample } from './examples.js';

export const LEDGER_BUCKETS: readonly LedgerBucket[] = ['agent-review', 'provisional', 'graduated', 'under-review'];

const bucket = '(agent-review|provisional|graduated|under-review)';

/** Unknown parameters are refused (400): the public read cache keys bodies by the validated query. */
export const LedgerEventsQuery = Type.Object(
  {
    filters: Type.Optional(
      Type.String({
        pattern: `^(${bucket}(,${bucket})*)?$`,
        description: 'Comma-separated ledger buckets among agent-review, provisional, graduated, under-review (default: all)',
      }),
    ),
    cursor: CursorParam,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
  },
  { additionalProperties: false },
);
export type LedgerEventsQuery = Static<typeof LedgerEventsQuery>;

/** A ledger event: exactly the fields docs/newsroom-reads.md lists under "Ledger", all required. */
export const LedgerEvent = Type.Object(
  {
    id: Type.String(),
    storyId: Type.String(),
    title: Type.String(),
    type: Type.Union([Type.Literal('CORRECTION'), Type.Literal('RETRACTION'), Type.Literal('CHALLENGE'), Type.Literal('UPDATE')]),
    createdAt: DateTime,
    storyState: Type.Union([
      Type.Literal('PROVISIONAL'),
      Type.Literal('GRADUATED'),
      Type.Literal('CONTESTED'),
      Type.Literal('UNDER_REVIEW'),
    ]),
    editorialState: Type.String(),
    promotionState: Type.String(),
    rewardWindowActive: Type.Boolean(),
    ledgerBucket: Type.Union([
      Type.Literal('agent-review'),
      Type.Literal('provisional'),
      Type.Literal('graduated'),
      Type.Literal('under-review'),
    ]),
  },
  {
    additionalProperties: false,
    title: 'LedgerEvent',
    description:
      "One entry of the newsroom's public history: a correction, retraction, challenge or update of a story, with the states recorded when it happened and its bucket.",
    examples: [ledgerEventExample],
  },
);
export type LedgerEvent = Static<typeof LedgerEvent>;

export const LedgerEventsResponse = Type.Object(
  { events: Type.Array(LedgerEvent), nextCursor: NextCursor },
  {
    title: 'LedgerEventPage',
    description: 'One page of ledger events, newest first; nextCursor is present when there is a next page.',
    examples: [ledgerEventPageExample],
  },
);
export type LedgerEventsResponse = Static<typeof LedgerEventsResponse>;

/** A ledger event in the localized modules (home, /v1/modules/ledger): the event plus labels. */
export const LabeledLedgerEvent = Type.Composite(
  [LedgerEvent, Type.Object({ labels: Type.Object({ type: Type.String(), storyState: Type.String(), ledgerBucket: Type.String() }) })],
  {
    title: 'LabeledLedgerEvent',
    description: 'A ledger event with its type, story state and bucket labelled in the requested language (home and the ledger module).',
    examples: [labeledLedgerEventExample],
  },
);
export type LabeledLedgerEvent = Static<typeof LabeledLedgerEvent>;
