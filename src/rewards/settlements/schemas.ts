import { Type, type Static } from '@sinclair/typebox';
import { CursorParam, NextCursor } from '../../platform/cursor.js';
import { DecimalBody, DecimalQuery } from '../../platform/decimal-input.js';
import { BotId, DateTime, HumanActorBody, HumanActorQuery, Identifier } from '../../platform/schemas.js';
import { Amount, MoneyRequestId } from '../money/schemas.js';
import {
  payoutExample,
  publishedContributionExample,
  runSettlementExample,
  settlementDetailExample,
  settlementExample,
  settlementPreviewExample,
} from './examples.js';

/** Settlement and payout requests and answers. */

export const Role = Type.Union([
  Type.Literal('WRITER'),
  Type.Literal('FACT_CHECK'),
  Type.Literal('RISK'),
  Type.Literal('SOURCE_DIVERSITY'),
]);
export const PayoutStatusSchema = Type.Union(
  [Type.Literal('PAYABLE'), Type.Literal('PENDING_RECIPIENT'), Type.Literal('FROZEN'), Type.Literal('REVIEW')],
  {
    description:
      'PAYABLE: can be paid to the verified wallet; PENDING_RECIPIENT: waits for recipient terms and a wallet; FROZEN; REVIEW: held until a review releases it',
  },
);

const POOL = 'The pool in display units of the reward token (minimum 0.01, at most REWARD_TOKEN_DECIMALS decimals)';

const RoleTotal = Type.Object(
  { pool: Amount, paid: Amount, weight: Type.String() },
  {
    title: 'RoleTotal',
    description: "One role's part of a settlement: its pool, what was paid out of it and the total contribution weight that shared it.",
  },
);
const Totals = {
  pool: Amount,
  escrow: Amount,
  paid: Amount,
  roles: Type.Object({ WRITER: RoleTotal, FACT_CHECK: RoleTotal, RISK: RoleTotal, SOURCE_DIVERSITY: RoleTotal }),
};

export const Settlement = Type.Object(
  {
    id: Type.String(),
    policyVersion: Type.Integer(),
    tokenDecimals: Type.Integer(),
    ...Totals,
    windowsClosedBefore: DateTime,
    storyCount: Type.Integer(),
    contributionCount: Type.Integer(),
    payoutCount: Type.Integer(),
    createdBy: Type.String(),
    createdAt: DateTime,
  },
  {
    title: 'Settlement',
    description:
      "A settlement run: the pool divided, the escrow kept, what was paid and each role's total, the policy version used, and how many stories, contributions and payouts it covered.",
    examples: [settlementExample],
  },
);

const PublishedContribution = Type.Object(
  {
    storyId: Type.String(),
    role: Role,
    beneficiaryKind: Type.Union([Type.Literal('BOT'), Type.Literal('HUMAN')]),
    beneficiaryId: Type.String(),
    owner: Type.Union([Type.String(), Type.Null()]),
    units: Type.String(),
    storyVoteWeight: Type.String(),
    weight: Type.String(),
  },
  {
    title: 'PublishedContribution',
    description:
      "One contribution a settlement paid: the story, the role, the beneficiary (a bot or a person) and its owner, the units of work, the story's reward-vote weight and their product, the weight.",
    examples: [publishedContributionExample],
  },
);

export const SettlementDetail = Type.Intersect(
  [
    Settlement,
    Type.Object({
      storyIds: Type.Array(Type.String()),
      inputs: Type.Object(
        {
          policyVersion: Type.Integer(),
          poolBase: Type.String(),
          escrowPpm: Type.Integer(),
          splitsPpm: Type.Object({
            WRITER: Type.Integer(),
            FACT_CHECK: Type.Integer(),
            RISK: Type.Integer(),
            SOURCE_DIVERSITY: Type.Integer(),
          }),
          seed: Type.String(),
          stories: Type.Array(
            Type.Object({ storyId: Type.String(), voteWeight: Type.String(), reviewStatus: Type.String(), rewardWindowEndedAt: DateTime }),
          ),
          contributions: Type.Array(PublishedContribution),
        },
        { description: 'Everything the computation used: `npm run settlement:verify <id>` recomputes the payouts from it' },
      ),
    }),
  ],
  {
    title: 'SettlementDetail',
    description:
      'A settlement with its published inputs: the policy rates, the seed, the stories with their vote weights and every contribution, enough to recompute every payout.',
    examples: [settlementDetailExample],
  },
);

export const SettlementsQuery = Type.Object(
  { ...HumanActorQuery, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })), cursor: CursorParam },
  { additionalProperties: false },
);
export const SettlementsPage = Type.Object(
  { items: Type.Array(Settlement), nextCursor: NextCursor },
  { title: 'SettlementsPage', description: 'One page of settlements, newest first; nextCursor is present when there is a next page.' },
);

export const PreviewQuery = Type.Object(
  { ...HumanActorQuery, totalPoolOrbs: DecimalQuery({ minimum: 0.01, description: POOL }) },
  { additionalProperties: false },
);
export const Preview = Type.Object(
  {
    preview: Type.Literal(true),
    previewDigest: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description: 'SHA-256 of the canonical JSON of what a run would divide: {policyVersion, poolBase, storyIds (sorted)}',
    }),
    // what the run would create but not pay now: payouts pending a recipient, frozen or in review
    pending: Amount,
    byStatus: Type.Object(
      { PAYABLE: Amount, PENDING_RECIPIENT: Amount, FROZEN: Amount, REVIEW: Amount },
      {
        description:
          'What the run would pay by the state its payouts start in: payable now, or pending (no recipient terms, frozen, in review)',
      },
    ),
    secondApproval: Type.Object(
      {
        required: Type.Boolean({ description: 'Whether the pool is above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS' }),
        aboveOrbs: Type.String({ description: 'SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS in display units' }),
        request: Type.Object(
          {
            action: Type.Literal('settlement.run'),
            target: Type.Literal('settlement'),
            payload: Type.Record(Type.String(), Type.String()),
          },
          { description: 'The control-plane request a run of this pool needs when required: file it as it stands' },
        ),
      },
      { description: 'Whether a run of this pool needs a second rewards admin, and the request to file for it' },
    ),
    policyVersion: Type.Integer(),
    policyStatus: Type.String(),
    runnable: Type.Boolean({ description: 'False while the policy is PAUSED or DISABLED (a run would answer 409 REWARDS_PAUSED)' }),
    windowsClosedBefore: DateTime,
    ...Totals,
    storyCount: Type.Integer(),
    contributionCount: Type.Integer(),
    payoutCount: Type.Integer(),
    stories: Type.Array(Type.Object({ storyId: Type.String(), voteWeight: Type.String() })),
    beneficiaries: Type.Array(
      Type.Object({
        beneficiaryKind: Type.Union([Type.Literal('BOT'), Type.Literal('HUMAN')]),
        beneficiaryId: Type.String(),
        amount: Amount,
        payableAmount: Amount,
      }),
    ),
  },
  {
    title: 'SettlementPreview',
    description: 'What a settlement run would pay now for a pool, by role, story and beneficiary; nothing is written.',
    examples: [settlementPreviewExample],
  },
);

export const RunBody = Type.Object(
  {
    ...HumanActorBody,
    totalPoolOrbs: DecimalBody({ minimum: 0.01, description: POOL }),
    controlPlaneRequestId: MoneyRequestId(
      'An EXECUTED settlement.run control-plane request for exactly this pool and these stories: needed above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS (docs/rewards.md, "Two people for money")',
    ),
  },
  {
    title: 'RunSettlementRequest',
    description: 'Body of a settlement run: the pool in display units (a number or a decimal string).',
    examples: [runSettlementExample],
    additionalProperties: false,
  },
);

export const SettlementParams = Type.Object({ id: Identifier });
export const ActorQuery = Type.Object({ ...HumanActorQuery }, { additionalProperties: false });

export const Payout = Type.Object(
  {
    id: Type.String(),
    settlementId: Type.String(),
    storyId: Type.String(),
    role: Role,
    beneficiaryKind: Type.Union([Type.Literal('BOT'), Type.Literal('HUMAN')]),
    beneficiaryId: Type.String(),
    botId: Type.Union([Type.String(), Type.Null()]),
    linkedHumanId: Type.Union([Type.String(), Type.Null()]),
    recipientId: Type.Union([Type.String(), Type.Null()]),
    weight: Type.String(),
    amount: Amount,
    status: PayoutStatusSchema,
    statusReason: Type.Union([Type.String(), Type.Null()]),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  {
    title: 'Payout',
    description:
      "One payout of a settlement: a role's share for a beneficiary on one story, the person and recipient it belongs to, the exact amount and its state (PAYABLE, PENDING_RECIPIENT, FROZEN, REVIEW) with the reason.",
    examples: [payoutExample],
  },
);
export const PayoutsQuery = Type.Object(
  {
    ...HumanActorQuery,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
    settlementId: Type.Optional(Identifier),
    botId: Type.Optional(BotId),
    storyId: Type.Optional(Identifier),
    role: Type.Optional(Role),
    status: Type.Optional(PayoutStatusSchema),
    cursor: CursorParam,
  },
  { additionalProperties: false },
);
export type PayoutsQuery = Static<typeof PayoutsQuery>;
export const PayoutsPage = Type.Object(
  { items: Type.Array(Payout), nextCursor: NextCursor },
  { title: 'PayoutsPage', description: 'One page of the payout ledger, oldest first; nextCursor is present when there is a next page.' },
);
