import type { PlatformDatabase } from '../platform/rows.js';
import type { RewardsDatabase } from './rows.js';
import type { TableNames } from '../platform/db/row-types.js';

const names = [
  'rewards_policy_versions',
  'reward_recipients',
  'reward_wallet_challenges',
  'paid_action_usage',
  'reward_story_freezes',
  'settlements',
  'settled_stories',
  'payouts',
  'payout_holders',
  'review_cases',
  'review_case_events',
  'claim_batches',
  'claim_batch_leaves',
  'claim_batch_payouts',
  'claim_batch_evidence',
  'claim_receipts',
  'bot_owner_challenges',
  'bot_owners',
  'bot_payout_owners',
] as const;

/**
 * The tables the rewards own: the policy versions, the payout recipients with their wallet challenges and paid-action
 * budget, the story freezes, the settlements with their settled stories, payouts and payout holders, the review cases,
 * the claim batches and receipts, the bot ownerships and the view of each bot's payout owner (bot_payout_owners).
 */
export const REWARDS_TABLES: TableNames<RewardsDatabase, typeof names> = names;

/**
 * The rewards' handle: their own tables and platform's, whose audit entry goes in the same transaction as the change
 * it records. What the rewards need of another context comes through ports: the stories' contributions
 * (`SettlementContributions`), a review target story (`ReviewStories`), a bot's identity records (`BotRecords`), the
 * control plane's second approval (`MoneyGate`) and the cartel analysis's holds (`CartelHolds`).
 */
export interface RewardsTables extends RewardsDatabase, PlatformDatabase {}
