import { getAddress, verifyMessage, type Hex } from 'viem';
import type { Selectable } from 'kysely';
import { createSiweMessage, generateSiweNonce, parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import { publicKeyObject, verifyAgentSignature } from '../../platform/auth/agent-signature.js';
import { linkedHumanIdFor, type AgentBook } from '../../platform/auth/agentbook.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import type { BotOwnersTable, PayoutStatus } from '../rows.js';
import type { BotsTable } from '../../identity/rows.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recipientOfHuman } from '../recipients/recipients-service.js';
import type { CartelHolds } from '../settlements/cartel-hook.js';
import { initialPayoutStatus } from '../settlements/payout-status.js';
import { holdSettlementRuns } from '../settlements/service.js';
import {
  assignPayouts,
  currentOwnership,
  endOwnership,
  findChallenge,
  insertChallenge,
  insertOwnership,
  lockWaitingPayouts,
  useChallenge,
  type WaitingPayout,
} from './repository.js';
import type { OwnerChallenge, OwnerChallengeBody, OwnerClaimBody, OwnerClaimed, OwnerUnlinkBody, OwnerUnlinked } from './schemas.js';

/** Lifetime of an ownership challenge. */
export const OWNER_CHALLENGE_TTL_MS = 5 * 60_000;
export const OWNER_CLAIM_PATH = '/v1/rewards/bot-owners/claim';

/** What the bot signs with an active Ed25519 key to consent to `owner` owning it (the SDK builds the same string). */
export const ownerConsentMessage = (aud: string, challengeId: string, botId: string, owner: string, walletAddress: string) =>
  `svc-agent-owner-v1:${aud}.${challengeId}.${botId}.${owner}.${walletAddress}`;

/** The person behind a signed request, when the service recorded them at the top tier (World ID, L3). */
function topTierHuman(actor: HumanActor): string {
  if (!actor.verified || actor.tier !== 'L3' || !actor.linkedHumanId) throw appError('BOT_OWNER_IDENTITY_REQUIRED');
  return actor.linkedHumanId;
}

const sameWallet = (a: { wallet_address: string | null; wallet_chain_id: string | null }, address: string, chainId: string) =>
  a.wallet_address !== null && a.wallet_address.toLowerCase() === address.toLowerCase() && a.wallet_chain_id === chainId;

/** The EVM chain number of a CAIP-2 `eip155:<n>` chain id (bots verify on EVM chains only). */
function chainNumber(caip2: string): number {
  const n = Number(/^eip155:(\d{1,12})$/.exec(caip2)?.[1]);
  if (!Number.isSafeInteger(n) || n < 1)
    throw appError('BOT_OWNER_BOT_NOT_VERIFIED', { message: `The bot's wallet chain ${caip2} is not an EVM chain` });
  return n;
}

/** What the bot owners read of a bot: its verification and wallet binding (identity's bots row). */
export type BotRecord = Pick<
  Selectable<BotsTable>,
  'bot_id' | 'source' | 'trust_tier' | 'linked_human_id' | 'wallet_address' | 'wallet_chain_id'
>;

/** identity → rewards' bot owners: a bot's records, the lock taken in the owners' own transaction. */
export interface BotRecords {
  find(botId: string): Promise<BotRecord | null>;
  /** Locks the bot row: a claim, an unlink and a verification (which updates the row) of one bot run one at a time. */
  lock(tx: Tx<RewardsTables>, botId: string): Promise<BotRecord | null>;
  /** The public key of an active (not revoked) key of the bot, or null. */
  activeKey(botId: string, version: number): Promise<string | null>;
}

export interface BotOwnersDeps {
  bots: BotRecords;
  db: Db<RewardsTables>;
  transactor: Transactor<RewardsTables>;
  clock: Clock;
  agentBook: AgentBook;
  cartelHolds: CartelHolds;
  serviceOrigin: string;
  aud: string;
}

/**
 * Bot owners (docs/rewards.md "Owning a bot"). An L3 person claims a verified self-serve bot by proving control
 * of the wallet it verified with (a one-time SIWE message naming the bot and the person) together with the
 * bot's consent (its Ed25519 key signs the challenge). From then on the bot's payouts are the person's, and the
 * payouts that waited for a payable owner become theirs, in the state the rewards rules give them.
 */
export function createBotOwnersService(deps: BotOwnersDeps) {
  const { db, transactor, clock, bots, agentBook, cartelHolds, serviceOrigin, aud } = deps;

  /** The bot as the claim needs it: a self-serve bot verified with a wallet. */
  async function claimableBot(botId: string) {
    const bot = await bots.find(botId);
    if (!bot) throw notFound('bot');
    if (bot.source !== 'SELF_SERVE' || bot.trust_tier !== 'VERIFIED' || !bot.wallet_address || !bot.wallet_chain_id) {
      throw appError('BOT_OWNER_BOT_NOT_VERIFIED');
    }
    return { ...bot, wallet_address: bot.wallet_address, wallet_chain_id: bot.wallet_chain_id };
  }

  /**
   * AgentBook must still map the wallet to the human the bot verified with: a wallet removed from AgentBook, or
   * moved to another human, proves no ownership (the bot verifies again first).
   */
  async function requireAgentBookBinding(address: string, linkedHumanId: string | null): Promise<void> {
    const humanId = await agentBook.lookupHuman(getAddress(address));
    if (humanId === null || linkedHumanIdFor(humanId) !== linkedHumanId) throw appError('BOT_OWNER_CHALLENGE_STALE');
  }

  /** The state a waiting payout moves to once `owner` owns the bot (never around a freeze or a review hold). */
  function nextState(
    p: WaitingPayout,
    standing: { recipientFrozen: boolean; walletVerified: boolean; held: boolean },
  ): { status: PayoutStatus; reason: string | null } {
    if (p.status === 'FROZEN') return { status: 'FROZEN', reason: p.status_reason };
    if (p.status === 'REVIEW') {
      // a frozen recipient freezes what it holds, review-held payouts included (as a recipient freeze does)
      return standing.recipientFrozen ? { status: 'FROZEN', reason: 'RECIPIENT_FROZEN' } : { status: 'REVIEW', reason: p.status_reason };
    }
    return initialPayoutStatus({
      storyFrozen: p.story_frozen,
      recipientFrozen: standing.recipientFrozen,
      heldForReview: standing.held,
      walletVerified: standing.walletVerified,
    });
  }

  /** Makes the bot's waiting payouts the owner's; answers how many moved and how many are payable now. */
  async function assignWaiting(tx: Tx<RewardsTables>, botId: string, owner: string, now: Date) {
    const [payouts, recipient, holds] = await Promise.all([
      lockWaitingPayouts(tx, botId, owner),
      recipientOfHuman(tx, owner),
      cartelHolds(tx),
    ]);
    const standing = {
      recipientFrozen: Boolean(recipient?.frozen_at),
      walletVerified: Boolean(recipient?.wallet_verified_at),
      held: holds('BOT', botId, owner),
    };
    const groups = new Map<string, { status: PayoutStatus; reason: string | null; seqs: string[] }>();
    for (const p of payouts) {
      const next = nextState(p, standing);
      const key = `${next.status}:${next.reason ?? ''}`;
      const group = groups.get(key) ?? { ...next, seqs: [] };
      group.seqs.push(p.seq);
      groups.set(key, group);
    }
    for (const g of groups.values()) {
      await assignPayouts(tx, g.seqs, {
        linkedHumanId: owner,
        recipientId: recipient?.id ?? null,
        status: g.status,
        reason: g.reason,
        now,
      });
    }
    const released = [...groups.values()].filter((g) => g.status === 'PAYABLE').reduce((n, g) => n + g.seqs.length, 0);
    return { assigned: payouts.length, released };
  }

  const presentOwnership = (row: BotOwnersTable) => ({
    botId: row.bot_id,
    ownerLinkedHumanId: row.linked_human_id,
    actorId: row.actor_id,
    walletAddress: row.wallet_address,
    walletChainId: row.wallet_chain_id,
    claimedAt: row.claimed_at.toISOString(),
  });

  return {
    /**
     * A one-time SIWE message for the bot's wallet naming the bot and the caller, and the consent message the
     * bot signs; valid 5 minutes. Refused early when the bot is owned by someone else.
     */
    async challenge(actor: HumanActor, body: OwnerChallengeBody): Promise<OwnerChallenge> {
      const owner = topTierHuman(actor);
      const bot = await claimableBot(body.botId);
      if (bot.wallet_address.toLowerCase() !== body.walletAddress.toLowerCase()) throw appError('BOT_OWNER_WALLET_MISMATCH');
      const current = await currentOwnership(db, bot.bot_id);
      if (current && current.linked_human_id !== owner && sameWallet(bot, current.wallet_address, current.wallet_chain_id)) {
        throw appError('BOT_ALREADY_OWNED');
      }
      const now = new Date(clock.now());
      const expiresAt = new Date(now.getTime() + OWNER_CHALLENGE_TTL_MS);
      const address = getAddress(bot.wallet_address);
      const id = newId('boc');
      const nonce = generateSiweNonce();
      const origin = new URL(serviceOrigin);
      const message = createSiweMessage({
        domain: origin.host,
        address,
        statement: `Make ${owner} the owner of bot ${bot.bot_id} of the newsroom: its payouts go to them.`,
        uri: `${origin.origin}${OWNER_CLAIM_PATH}`,
        version: '1',
        chainId: chainNumber(bot.wallet_chain_id),
        nonce,
        issuedAt: now,
        expirationTime: expiresAt,
        requestId: id,
        resources: [`urn:newsroom:bot:${bot.bot_id}`, `urn:newsroom:human:${owner}`],
      });
      await insertChallenge(db, {
        id,
        bot_id: bot.bot_id,
        linked_human_id: owner,
        actor_id: actor.actorId,
        wallet_address: address,
        wallet_chain_id: bot.wallet_chain_id,
        nonce,
        message,
        created_at: now,
        expires_at: expiresAt,
      });
      return {
        challengeId: id,
        botId: bot.bot_id,
        ownerLinkedHumanId: owner,
        walletAddress: address,
        walletChainId: bot.wallet_chain_id,
        message,
        consentMessage: ownerConsentMessage(aud, id, bot.bot_id, owner, address),
        expiresAt: expiresAt.toISOString(),
      };
    },

    /**
     * Checks, in order: the caller is L3 and the challenge is theirs, unused and unexpired; the wallet's EIP-191
     * signature of the exact message; the bot's consent by an active key; AgentBook still maps the wallet to the
     * bot's human. Then, in one transaction under the bot's row lock: the challenge is used (once, by a
     * conditional update), the bot is still verified with that wallet and has no other current owner, the
     * ownership is recorded, the waiting payouts become the owner's, and the claim is audited.
     */
    async claim(actor: HumanActor, body: OwnerClaimBody): Promise<OwnerClaimed> {
      const owner = topTierHuman(actor);
      const challenge = await findChallenge(db, body.challengeId);
      if (!challenge || challenge.linked_human_id !== owner) throw appError('BOT_OWNER_CHALLENGE_NOT_FOUND');
      if (challenge.used_at) throw appError('BOT_OWNER_CHALLENGE_USED');
      if (challenge.expires_at.getTime() <= clock.now()) throw appError('BOT_OWNER_CHALLENGE_EXPIRED');

      const address = challenge.wallet_address as Hex;
      const siwe = parseSiweMessage(challenge.message);
      const fields =
        validateSiweMessage({
          message: siwe,
          address,
          domain: new URL(serviceOrigin).host,
          nonce: challenge.nonce,
          time: new Date(clock.now()),
        }) && siwe.requestId === challenge.id;
      const signed =
        fields && (await verifyMessage({ address, message: challenge.message, signature: body.walletSignature as Hex }).catch(() => false));
      if (!signed) throw appError('BOT_OWNER_SIGNATURE_INVALID');

      const publicKey = await bots.activeKey(challenge.bot_id, body.botConsent.keyVersion);
      const key = publicKey ? publicKeyObject(publicKey) : null;
      const consent = Buffer.from(ownerConsentMessage(aud, challenge.id, challenge.bot_id, owner, challenge.wallet_address), 'utf8');
      if (!key || !verifyAgentSignature(key, consent, Buffer.from(body.botConsent.signature, 'base64url'))) {
        throw appError('BOT_OWNER_CONSENT_INVALID');
      }
      const bot = await claimableBot(challenge.bot_id);
      if (!sameWallet(bot, challenge.wallet_address, challenge.wallet_chain_id)) throw appError('BOT_OWNER_CHALLENGE_STALE');
      await requireAgentBookBinding(challenge.wallet_address, bot.linked_human_id);

      return withTransaction(transactor, async (tx) => {
        const now = new Date(clock.now());
        // a settlement run in progress finishes first; the next one reads the new owner
        await holdSettlementRuns(tx);
        const locked = await bots.lock(tx, challenge.bot_id);
        if (
          !locked ||
          !sameWallet(locked, challenge.wallet_address, challenge.wallet_chain_id) ||
          locked.linked_human_id !== bot.linked_human_id
        ) {
          throw appError('BOT_OWNER_CHALLENGE_STALE');
        }
        // the database decides single use: of two concurrent claims with one challenge one uses it
        if (!(await useChallenge(tx, challenge.id, now))) throw appError('BOT_OWNER_CHALLENGE_USED');
        const current = await currentOwnership(tx, challenge.bot_id);
        if (current) {
          // a current owner of the bot's wallet keeps it unless it is the claimant renewing; an owner of a wallet
          // the bot no longer verifies with has lapsed and is replaced
          if (current.linked_human_id !== owner && sameWallet(locked, current.wallet_address, current.wallet_chain_id)) {
            throw appError('BOT_ALREADY_OWNED');
          }
          await endOwnership(tx, current.id, 'REPLACED', actor.actorId, now);
        }
        const row: BotOwnersTable = {
          id: newId('bow'),
          bot_id: challenge.bot_id,
          linked_human_id: owner,
          actor_id: actor.actorId,
          wallet_address: challenge.wallet_address,
          wallet_chain_id: challenge.wallet_chain_id,
          challenge_id: challenge.id,
          consent_key_version: body.botConsent.keyVersion,
          claimed_at: now,
          ended_at: null,
          ended_reason: null,
          ended_by: null,
        };
        if ((await insertOwnership(tx, row)) === 'owned') throw appError('BOT_ALREADY_OWNED');
        const payouts = await assignWaiting(tx, challenge.bot_id, owner, now);
        await appendAudit(tx, {
          scope: 'REWARDS',
          action: 'bot_owner.claimed',
          actor,
          target: challenge.bot_id,
          details: {
            ownershipId: row.id,
            owner,
            walletAddress: row.wallet_address,
            walletChainId: row.wallet_chain_id,
            challengeId: challenge.id,
            consentKeyVersion: row.consent_key_version,
            replaced: current?.id ?? null,
            payoutsAssigned: payouts.assigned,
            payoutsReleased: payouts.released,
          },
          at: now,
        });
        return { ...presentOwnership(row), payoutsAssigned: payouts.assigned, payoutsReleased: payouts.released };
      });
    },

    /**
     * The current owner ends the ownership. Payouts already theirs stay theirs; the bot's later payouts go to the
     * linked human of its AgentBook verification (so they wait, unless that person is a recipient) until a new claim.
     */
    async unlink(actor: HumanActor, body: OwnerUnlinkBody): Promise<OwnerUnlinked> {
      const owner = topTierHuman(actor);
      return withTransaction(transactor, async (tx) => {
        const now = new Date(clock.now());
        await holdSettlementRuns(tx);
        if (!(await bots.lock(tx, body.botId))) throw notFound('bot');
        const current = await currentOwnership(tx, body.botId);
        if (!current || current.linked_human_id !== owner) throw appError('BOT_NOT_OWNED_BY_CALLER');
        await endOwnership(tx, current.id, 'UNLINKED', actor.actorId, now);
        await appendAudit(tx, {
          scope: 'REWARDS',
          action: 'bot_owner.unlinked',
          actor,
          target: body.botId,
          details: { ownershipId: current.id, owner },
          at: now,
        });
        return { ...presentOwnership(current), unlinkedAt: now.toISOString() };
      });
    },
  };
}

export type BotOwnersService = ReturnType<typeof createBotOwnersService>;
