import { Type } from '@sinclair/typebox';
import { DateTime, HumanActorBody, HumanActorQuery, Identifier } from '../../platform/schemas.js';
import { Amount } from '../money/schemas.js';
import { Payout } from '../settlements/schemas.js';
import {
  budgetExample,
  dashboardExample,
  eligibilityExample,
  monetaryEligibilityExample,
  recipientExample,
  walletChallengeExample,
  walletChallengeRequestExample,
  walletExample,
  walletVerifiedExample,
} from './examples.js';

/** Recipients, wallets and the private rewards reads. */

export const RecipientBody = Type.Object(
  {
    ...HumanActorBody,
    acceptTerms: Type.Boolean({ description: 'true: the caller accepts the payout terms' }),
    termsVersion: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'The version accepted (GET /v1/rewards/eligibility terms.version)',
    }),
  },
  {
    title: 'AcceptPayoutTermsRequest',
    description: 'Body that accepts the payout terms: `acceptTerms: true` and the terms version read from the eligibility.',
    additionalProperties: false,
  },
);

const Wallet = Type.Object(
  { address: Type.String(), chainId: Type.Integer(), verifiedAt: DateTime },
  {
    title: 'Wallet',
    description: "A recipient's verified wallet: the address that signed the challenge, its chain id and when it was verified.",
    examples: [walletExample],
  },
);
export const Recipient = Type.Object(
  {
    id: Type.String(),
    linkedHumanId: Type.String(),
    actorId: Type.String(),
    termsVersion: Type.String(),
    termsAcceptedAt: DateTime,
    wallet: Type.Union([Wallet, Type.Null()]),
    frozen: Type.Boolean(),
    frozenAt: Type.Union([DateTime, Type.Null()]),
  },
  {
    title: 'Recipient',
    description:
      'A payout recipient: the person (linkedHumanId) who accepted the payout terms, the actorId that accepted them, the verified wallet payouts go to, and whether the recipient is frozen.',
    examples: [recipientExample],
  },
);

export const WalletChallengeBody = Type.Object(
  {
    ...HumanActorBody,
    address: Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' }),
    chainId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  },
  {
    title: 'WalletChallengeRequest',
    description: 'Body that asks for a wallet challenge: the wallet address and its chain id.',
    examples: [walletChallengeRequestExample],
    additionalProperties: false,
  },
);
export const WalletChallenge = Type.Object(
  {
    challengeId: Type.String(),
    recipientId: Type.String(),
    address: Type.String(),
    chainId: Type.Integer(),
    message: Type.String({ description: 'The EIP-4361 (SIWE) message to sign with personal_sign (EIP-191), byte for byte' }),
    expiresAt: DateTime,
  },
  {
    title: 'WalletChallenge',
    description: "A one-time SIWE (EIP-4361) message that binds a wallet to the caller's recipient once it is signed; valid 5 minutes.",
    examples: [walletChallengeExample],
  },
);
export const WalletVerifyBody = Type.Object(
  {
    ...HumanActorBody,
    challengeId: Type.String({ minLength: 1, maxLength: 100 }),
    signature: Type.String({ pattern: '^0x[0-9a-fA-F]{130}$', description: '65-byte EIP-191 signature, hex' }),
  },
  {
    title: 'VerifyWalletRequest',
    description: 'Body that verifies a wallet: the challenge and the 65-byte EIP-191 signature of its message.',
    additionalProperties: false,
  },
);
export const WalletVerified = Type.Intersect([Recipient, Type.Object({ payoutsReleased: Type.Integer() })], {
  title: 'WalletVerified',
  description: 'The recipient after its wallet was verified, with payoutsReleased: the waiting payouts that became PAYABLE.',
  examples: [walletVerifiedExample],
});

export const UserQuery = Type.Object({ ...HumanActorQuery, userId: Identifier }, { additionalProperties: false });

const Tier = Type.Union([Type.Literal('L0'), Type.Literal('L2'), Type.Literal('L3')]);
const MonetaryEligibility = Type.Object(
  {
    eligible: Type.Boolean(),
    reasons: Type.Array(Type.String(), {
      description: 'L3_IDENTITY_REQUIRED, TERMS_NOT_ACCEPTED, TERMS_OUTDATED, WALLET_NOT_VERIFIED, RECIPIENT_FROZEN',
    }),
  },
  {
    title: 'MonetaryEligibility',
    description: 'Whether a person can be paid now, and if not, each reason.',
    examples: [monetaryEligibilityExample],
  },
);
export const Eligibility = Type.Object(
  {
    userId: Type.String(),
    tier: Tier,
    linkedHumanId: Type.Union([Type.String(), Type.Null()]),
    rewardVotes: Type.Object({ allowed: Type.Boolean(), weight: Type.Integer(), weightNote: Type.String() }),
    monetaryRewards: MonetaryEligibility,
    canRegisterRecipient: Type.Boolean(),
    terms: Type.Object({ version: Type.String() }),
    recipient: Type.Union([Recipient, Type.Null()]),
  },
  {
    title: 'Eligibility',
    description:
      "A reader's reward eligibility: recorded tier, reward-vote weight, whether they can be paid and why not, the terms version and their recipient.",
    examples: [eligibilityExample],
  },
);

const BudgetFields = {
  day: Type.String({ description: 'UTC day, YYYY-MM-DD' }),
  tier: Tier,
  limit: Type.Integer(),
  used: Type.Integer(),
  remaining: Type.Integer(),
  resetsAt: DateTime,
};
export const Budget = Type.Object(
  { userId: Type.String(), paidActions: Type.Array(Type.String()), ...BudgetFields },
  {
    title: 'Budget',
    description:
      "A person's daily paid-action budget: the paid actions, the limit by tier, what is used and remaining today and when it resets.",
    examples: [budgetExample],
  },
);

const StatusTotal = Type.Object(
  { count: Type.Integer(), amount: Amount },
  { title: 'StatusTotal', description: 'How many payouts are in one state, and their amount.' },
);
export const Dashboard = Type.Object(
  {
    userId: Type.String(),
    eligibility: MonetaryEligibility,
    recipient: Type.Union([Recipient, Type.Null()]),
    budget: Type.Object(BudgetFields),
    bots: Type.Array(Type.String()),
    payouts: Type.Object({ PAYABLE: StatusTotal, PENDING_RECIPIENT: StatusTotal, FROZEN: StatusTotal, REVIEW: StatusTotal, total: Amount }),
    recentPayouts: Type.Array(Payout),
  },
  {
    title: 'Dashboard',
    description:
      "Everything a person follows about their rewards: eligibility, recipient, today's budget, their bots, payout totals by state and the latest payouts.",
    examples: [dashboardExample],
  },
);
