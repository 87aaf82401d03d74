import { Type, type Static } from '@sinclair/typebox';
import { DELIVERY_STATES } from '../../delivery/webhooks/delivery-log.js';
import { LegalHoldsQuery, QUARANTINE_STATUSES } from '../../newsroom/moderation/schemas.js';
import { PageCursorParam } from '../../platform/cursor.js';
import { LangParam } from '../../platform/i18n/index.js';
import { SeqText } from '../../platform/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { form } from '../site/form-schemas.js';

/** Queries and form bodies of the console's moderation area. */

const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const OptionalId = Type.Optional(Type.Union([Id, Type.Literal('')]));
const Reason = Type.String({ minLength: 1, maxLength: 2000 });

export const QuarantinePageQuery = Type.Object(
  { lang: LangParam, status: Type.Optional(StringEnum(QUARANTINE_STATUSES)), cursor: PageCursorParam },
  { additionalProperties: false },
);
export const HoldsPageQuery = Type.Object(
  { lang: LangParam, status: LegalHoldsQuery.properties.status, storyId: OptionalId, cursor: PageCursorParam },
  { additionalProperties: false },
);
export const SourcesPageQuery = Type.Object({ lang: LangParam, story: OptionalId }, { additionalProperties: false });
/** `q`: words of a story's title (the public search); `id`: a story's id, straight to its page. */
export const StoryFindQuery = Type.Object(
  { lang: LangParam, id: OptionalId, q: Type.Optional(Type.String({ maxLength: 300, pattern: '^[^\\u0000]*$' })) },
  { additionalProperties: false },
);
/** `event`: the webhook event a correction or retraction just made, named on the story's page. */
export const StoryPageQuery = Type.Object(
  { lang: LangParam, event: Type.Optional(Id), draft: Type.Optional(Id) },
  { additionalProperties: false },
);
/** A correction draft kept in the person's session (its preview's address names it). */
export const DraftQuery = Type.Object({ lang: LangParam, draft: Id }, { additionalProperties: false });
/** The retraction's confirmation page: the reason written on the story page comes along. */
export const RetractionPageQuery = Type.Object(
  { lang: LangParam, reason: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);
export const DeliveriesPageQuery = Type.Object(
  {
    lang: LangParam,
    state: Type.Optional(Type.Union([...DELIVERY_STATES.map((s) => Type.Literal(s)), Type.Literal('')])),
    event: Type.Optional(Type.Union([Id, Type.Literal('')])),
    // a delivery's seq, compared with the bigint column: digits within int8's range, never a database error
    before: Type.Optional(Type.Union([SeqText, Type.Literal('')])),
  },
  { additionalProperties: false },
);

export const ResolveParams = Type.Object({ scopeType: Type.Literal('story'), scopeId: Id });
export const LangQuery = Type.Object({ lang: LangParam }, { additionalProperties: false });
/** The block confirmation page: the reason written on the queue comes along, to be read once more. */
export const BlockPageQuery = Type.Object(
  { lang: LangParam, reason: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);
/** `confirm`: from the block confirmation page only (BLOCK without it shows that page first). */
export const ResolveForm = form({
  decision: Type.Union([Type.Literal('RELEASE'), Type.Literal('KEEP'), Type.Literal('BLOCK')]),
  reason: Reason,
  confirm: Type.Optional(Type.Literal('1')),
});

export const PlaceHoldForm = form({
  storyId: Id,
  reason: Reason,
  caseReference: Type.Optional(Type.String({ maxLength: 200 })),
});
export const ReleaseHoldForm = form({ reason: Reason });

export const SOURCE_HOST_PATTERN = '^[A-Za-z0-9][A-Za-z0-9.-]*$';
export const SourceStatusForm = form({
  host: Type.String({ minLength: 1, maxLength: 253 }),
  status: Type.Union([Type.Literal('UNRATED'), Type.Literal('TRUSTED'), Type.Literal('WATCH'), Type.Literal('BANNED')]),
  reason: Reason,
});

/** One value or, when the form repeats the field (one per claim), several. */
const Many = <T extends ReturnType<typeof Type.String>>(item: T) => Type.Optional(Type.Union([item, Type.Array(item, { maxItems: 500 })]));

/**
 * The fields of a story's packet a correction may change, as the form writes them: each claim its own row
 * (`claimId` hidden, empty for a new one; `claimText`; `claimRemove` the rows ticked for removal, by index),
 * the sources as JSON.
 */
export const CorrectionForm = form({
  title: Type.String({ maxLength: 300 }),
  summary: Type.String({ maxLength: 2000 }),
  body: Type.String({ maxLength: 100_000 }),
  claimId: Many(Type.String({ maxLength: 64 })),
  claimText: Many(Type.String({ maxLength: 5000 })),
  claimRemove: Many(Type.String({ maxLength: 4, pattern: '^[0-9]+$' })),
  sources: Type.String({ maxLength: 200_000 }),
  note: Type.String({ maxLength: 2000 }),
});
export type CorrectionForm = Static<typeof CorrectionForm>;
/** Sending a previewed correction: the draft is the one the preview showed, kept in the session. */
export const SendCorrectionForm = form({ draft: Id });
export const RetractionForm = form({ reason: Reason });
