import { Type, type Static } from '@sinclair/typebox';
import { CursorParam, NextCursor } from '../cursor.js';
import { DateTime, HumanActorQuery, IDENTIFIER, Nullable } from '../schemas.js';
import { StringEnum } from '../string-enum.js';

/** The audit log as the API answers it: the chain's rows, newest first, with their links. */

const Hash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Lowercase hex SHA-256' });

/**
 * A day (`2026-05-04`, UTC) or an instant (`2026-05-04T09:12:44Z`, an offset or milliseconds allowed). The form
 * is checked here, the calendar by the service (`2026-02-30` is 400 too).
 */
const Instant = Type.String({
  maxLength: 40,
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2}))?$',
});

const auditEventExample = {
  seq: '1284',
  id: 'au_Qw3Er7Ty1Ui5Op9A',
  scope: 'MODERATION',
  action: 'legal-hold.placed',
  actorId: 'acct_Zx8Cv2Bn6Mq4Wl0K',
  linkedHumanId: 'h_4b7e2c9d1a0f83e6c5b2d7a9f1e04c38',
  target: 'story:st_Lp2sD8fG4hJk6ZxC',
  details: { holdId: 'lh_Ub3Nx7Lq1Ke5Rw9T', reason: 'Preservation order', caseReference: 'County Court, claim CC-2026-0418' },
  createdAt: '2026-05-14T08:30:12.904Z',
  prevHash: '5d1c9a7e3b0f42d8a6c1e9b7f3d5a2c08e4b6d1f9a3c7e5b2d0f8a6c4e1b9d7a',
  hash: 'a3f9c2e7b1d5084f6e2a9c7b3d1f5e08a4c6b2d9f7e3a1c5b8d0f4e6a2c9b7d1',
};

export const AuditEvent = Type.Object(
  {
    seq: Type.String({ pattern: '^[1-9][0-9]*$', description: 'Position in the chain (1, 2, 3 …), as decimal text' }),
    id: Type.String(),
    scope: StringEnum(['GOVERNANCE', 'CONTROL_PLANE', 'MODERATION', 'REWARDS']),
    action: Type.String({ description: 'What happened, dotted (`proposal.activated`, `request.approved`, `legal-hold.placed`)' }),
    actorId: Type.String({ description: 'Who did it: the actor that signed the change' }),
    linkedHumanId: Nullable(Type.String({ description: 'The linked human bound to that actor, when there is one' })),
    target: Type.String({ description: 'What it happened to (a proposal id, a request id, `story:<id>`)' }),
    details: Type.Unknown({ description: 'The change as recorded (JSON object)' }),
    createdAt: DateTime,
    prevHash: { ...Hash, description: 'The hash of the row before (seq − 1); 64 zeros for the first row' },
    hash: { ...Hash, description: "SHA-256 of the row's canonical JSON, prevHash included (docs/governance.md, “Audit chain”)" },
  },
  {
    title: 'AuditEvent',
    description: 'One row of the audit chain: who did what to what, when, its details, and the hashes that link it to the row before.',
    examples: [auditEventExample],
  },
);
export type AuditEvent = Static<typeof AuditEvent>;

export const AuditEventsPage = Type.Object(
  { items: Type.Array(AuditEvent), nextCursor: NextCursor },
  {
    title: 'AuditEventsPage',
    description: 'One page of the audit chain, newest first; nextCursor is present when there is a next (older) page.',
    examples: [{ items: [auditEventExample], nextCursor: 'WyJhdWRpdCIsIjEyODQiXQ.Hk4rT9wQ2mXa7LcN' }],
  },
);
export type AuditEventsPage = Static<typeof AuditEventsPage>;

/** The filters of the audit log; each one given narrows it. */
export const AuditFilterQuery = {
  actor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, pattern: IDENTIFIER.source, description: 'Rows by this actorId or linkedHumanId' }),
  ),
  action: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$', description: 'Rows of this action, exactly' }),
  ),
  from: Type.Optional({ ...Instant, description: 'Rows at or after this day (UTC) or instant' }),
  to: Type.Optional({ ...Instant, description: 'Rows up to this day (UTC, the whole day) or before this instant' }),
};

export const AuditEventsQuery = Type.Object(
  {
    ...HumanActorQuery,
    ...AuditFilterQuery,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: CursorParam,
  },
  { additionalProperties: false },
);
export type AuditEventsQuery = Static<typeof AuditEventsQuery>;
