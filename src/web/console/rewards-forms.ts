import type { PayoutStatus } from '../../rewards/rows.js';
import { Type } from '@sinclair/typebox';
import { PageCursorParam } from '../../platform/cursor.js';
import { LangParam } from '../../platform/i18n/index.js';
import { PayoutStatusSchema } from '../../rewards/settlements/schemas.js';
import { form } from '../site/form-schemas.js';

/** Bodies and queries of the console's rewards pages (each form carries its CSRF token, language and page to come back to). */

const Id = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_.:-]+$' });
const Note = Type.String({ minLength: 1, maxLength: 2000 });
const OptionalNote = Type.Optional(Type.String({ maxLength: 2000 }));
/** A decimal as typed (the console checks it; the API has the last word). */
const Decimal = Type.String({ minLength: 1, maxLength: 100 });
const Digits = Type.String({ maxLength: 100, pattern: '^[0-9]*$' });
const TxHash = Type.Optional(Type.Union([Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' }), Type.Literal('')]));
/** A pool in orbs as the settlement form's field takes it: decimal digits (the API sets its least amount). */
const PoolOrbs = Type.String({ minLength: 1, maxLength: 100, pattern: '^[0-9]+(\\.[0-9]+)?$' });
const Ticked = Type.Optional(Type.Literal('1'));
const Digest = Type.String({ pattern: '^[0-9a-f]{64}$' });

export const RewardsIdParams = Type.Object({ id: Id });
/** A page of a list (claim batches, settlements, a settlement's payouts: those of one status). */
export const RewardsPageQuery = Type.Object(
  { lang: LangParam, cursor: PageCursorParam, status: Type.Optional(PayoutStatusSchema) },
  { additionalProperties: false },
);
/** The preview of a settlement (an empty pool: back to the settlements page). */
export const PreviewPageQuery = Type.Object(
  { lang: LangParam, totalPoolOrbs: Type.Optional(Type.Union([PoolOrbs, Type.Literal('')])) },
  { additionalProperties: false },
);

const policyFields = {
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('PAUSED'), Type.Literal('DISABLED')]),
  escrowRate: Decimal,
  WRITER: Decimal,
  FACT_CHECK: Decimal,
  RISK: Decimal,
  SOURCE_DIVERSITY: Decimal,
  reason: Type.Optional(Type.String({ maxLength: 500 })),
};
/** The policy form: it goes to the confirm page first. */
export const PolicyForm = form(policyFields);
/** The confirm page's "Apply": the same values, and the policy version they were compared with. */
export const PolicyApplyForm = form({ ...policyFields, baseVersion: Digits });

/** A run, with the totals of the preview the person saw (the console refuses it if they changed since). */
export const RunForm = form({
  totalPoolOrbs: PoolOrbs,
  policyVersion: Digits,
  pool: Digits,
  escrow: Digits,
  paid: Digits,
  storyCount: Digits,
  payoutCount: Digits,
});

/** Asks a second rewards admin to approve the run of the preview the person saw (its digest). */
export const MoneyRequestForm = form({
  totalPoolOrbs: PoolOrbs,
  previewDigest: Digest,
  reason: Note,
});
/** Runs an approved settlement.run request, or finalizes with an approved batch.finalize one (its inputs are the request's). */
export const UseMoneyRequestForm = form({});

export const OpenCaseForm = form({
  targetType: Type.Union([Type.Literal('RECIPIENT'), Type.Literal('STORY'), Type.Literal('BATCH'), Type.Literal('PAYOUT')]),
  targetId: Id,
  reason: Note,
  assignedToActorId: Type.Optional(Type.Union([Id, Type.Literal('')])),
});
export const AssignCaseForm = form({ assigneeActorId: Id, note: OptionalNote });
export const EscalateCaseForm = form({ note: OptionalNote });
export const AppealCaseForm = form({ note: Note });
export const ResolveCaseForm = form({
  outcome: Type.Union([Type.Literal('RESOLVED'), Type.Literal('DISMISSED')]),
  resolution: Note,
  releasePayouts: Ticked,
});

export const FreezeForm = form({
  targetType: Type.Union([Type.Literal('RECIPIENT'), Type.Literal('STORY')]),
  targetId: Id,
  move: Type.Union([Type.Literal('freeze'), Type.Literal('unfreeze')]),
  reason: Note,
});

/** Days until a batch's claim deadline (the API's 1 to 365), or empty for its default. */
const ClaimWindowDays = Type.Optional(Type.String({ maxLength: 3, pattern: '^[0-9]*$' }));
/** The confirm page of a finalize: what it would batch now, with this claim window. */
export const FinalizeQuery = Type.Object({ lang: LangParam, claimWindowDays: ClaimWindowDays }, { additionalProperties: false });
/**
 * A finalize, with the digest of the batch the person confirmed (without it, the confirm page comes first; the
 * console refuses it if what would be batched changed since).
 */
export const FinalizeForm = form({ claimWindowDays: ClaimWindowDays, previewDigest: Type.Optional(Digest) });
/** Asks a second rewards admin to approve the batch the person confirmed (its digest). */
export const FinalizeRequestForm = form({ claimWindowDays: ClaimWindowDays, previewDigest: Digest, reason: Note });
/** Cancels one's own money request, from its confirm page (without the page's mark, the page comes first). */
export const CancelMoneyRequestForm = form({ reason: OptionalNote, confirmed: Ticked });
export const BatchFreezeForm = form({ reason: Note, txHash: TxHash });

/** The states a payout can be in, in the order the settlement page filters by them. */
export const PAYOUT_STATUSES = ['PAYABLE', 'PENDING_RECIPIENT', 'FROZEN', 'REVIEW'] as const satisfies readonly PayoutStatus[];
