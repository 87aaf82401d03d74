import { getAddress, isAddress, verifyMessage, type Hex } from 'viem';
import { createSiweMessage, generateSiweNonce } from 'viem/siwe';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, Queryable } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import type { RewardRecipientsTable } from '../rows.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { holdSettlementRuns } from '../settlements/service.js';
import { appError, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import {
  bindWallet,
  claimWalletChallenge,
  findRecipientByHuman,
  findWalletChallenge,
  insertWalletChallenge,
  releaseWaitingPayouts,
  upsertRecipient,
} from './recipients-repository.js';

/** The payout terms a recipient accepts; a new text gets a new version, and recipients accept it again. */
export const TERMS_VERSION = '2026-11';
/** Lifetime of a wallet binding challenge. */
export const WALLET_CHALLENGE_TTL_MS = 5 * 60_000;

export function presentRecipient(row: RewardRecipientsTable) {
  return {
    id: row.id,
    linkedHumanId: row.linked_human_id,
    actorId: row.actor_id,
    termsVersion: row.terms_version,
    termsAcceptedAt: row.terms_accepted_at.toISOString(),
    wallet: row.wallet_address
      ? { address: row.wallet_address, chainId: row.wallet_chain_id!, verifiedAt: row.wallet_verified_at!.toISOString() }
      : null,
    frozen: row.frozen_at !== null,
    frozenAt: row.frozen_at ? row.frozen_at.toISOString() : null,
  };
}

/** The payout recipient of a person, or null (claims read it to find a person's leaf in a batch). */
export async function recipientOfHuman(q: Queryable<RewardsTables>, linkedHumanId: string) {
  return findRecipientByHuman(q, linkedHumanId);
}

/** The person behind a signed request, when the service recorded them at the top tier (World ID, L3). */
function topTierHuman(actor: HumanActor): string | null {
  return actor.verified && actor.tier === 'L3' && actor.linkedHumanId ? actor.linkedHumanId : null;
}

/**
 * Payout recipients: an L3 person accepts the payout terms, then binds a wallet by signing a SIWE
 * (EIP-4361) challenge scoped to their recipient with an EIP-191 personal signature.
 */
export function createRecipientsService(deps: {
  db: Db<RewardsTables>;
  transactor: Transactor<RewardsTables>;
  clock: Clock;
  serviceOrigin: string;
}) {
  const { db, transactor, clock, serviceOrigin } = deps;

  async function requireRecipient(actor: HumanActor) {
    const human = topTierHuman(actor);
    const recipient = human ? await findRecipientByHuman(db, human) : null;
    if (!recipient) throw appError('RECIPIENT_REQUIRED');
    if (recipient.frozen_at) throw appError('RECIPIENT_FROZEN');
    return recipient;
  }

  return {
    async acceptTerms(actor: HumanActor, body: { acceptTerms: boolean; termsVersion: string }) {
      const human = topTierHuman(actor);
      if (!human) throw appError('RECIPIENT_IDENTITY_REQUIRED');
      if (!body.acceptTerms) throw validationFailed([{ path: '/acceptTerms', message: 'the payout terms must be accepted (true)' }]);
      if (body.termsVersion !== TERMS_VERSION) {
        throw validationFailed([{ path: '/termsVersion', message: `the current payout terms are version ${TERMS_VERSION}` }]);
      }
      return withTransaction(transactor, async (tx) => {
        const now = new Date(clock.now());
        const row = await upsertRecipient(tx, {
          id: newId('rcp'),
          linked_human_id: human,
          actor_id: actor.actorId,
          terms_version: body.termsVersion,
          terms_accepted_at: now,
          wallet_address: null,
          wallet_chain_id: null,
          wallet_verified_at: null,
          frozen_at: null,
          frozen_reason: null,
          frozen_by: null,
          created_at: now,
          updated_at: now,
        });
        return presentRecipient(row);
      });
    },

    /** A one-time SIWE message for the caller's recipient and the wallet they name; valid 5 minutes. */
    async challenge(actor: HumanActor, body: { address: string; chainId: number }) {
      if (!isAddress(body.address, { strict: false })) throw validationFailed([{ path: '/address', message: 'not an Ethereum address' }]);
      const recipient = await requireRecipient(actor);
      const now = new Date(clock.now());
      const expiresAt = new Date(now.getTime() + WALLET_CHALLENGE_TTL_MS);
      const address = getAddress(body.address);
      const nonce = generateSiweNonce();
      const id = newId('wch');
      const origin = new URL(serviceOrigin);
      const message = createSiweMessage({
        domain: origin.host,
        address,
        statement: `Bind this wallet to payout recipient ${recipient.id} of the newsroom rewards.`,
        uri: `${origin.origin}/v1/rewards/wallets/verify`,
        version: '1',
        chainId: body.chainId,
        nonce,
        issuedAt: now,
        expirationTime: expiresAt,
        requestId: id,
        resources: [`urn:newsroom:recipient:${recipient.id}`],
      });
      await insertWalletChallenge(db, {
        id,
        recipient_id: recipient.id,
        address,
        chain_id: body.chainId,
        nonce,
        message,
        created_at: now,
        expires_at: expiresAt,
      });
      return { challengeId: id, recipientId: recipient.id, address, chainId: body.chainId, message, expiresAt: expiresAt.toISOString() };
    },

    /** Checks the EIP-191 signature of the exact challenge message, uses the challenge once, binds the wallet. */
    async verify(actor: HumanActor, body: { challengeId: string; signature: string }) {
      const recipient = await requireRecipient(actor);
      const challenge = await findWalletChallenge(db, body.challengeId);
      if (!challenge || challenge.recipient_id !== recipient.id) throw appError('WALLET_CHALLENGE_NOT_FOUND');
      if (challenge.used_at) throw appError('WALLET_CHALLENGE_USED');
      if (challenge.expires_at.getTime() <= clock.now()) throw appError('WALLET_CHALLENGE_EXPIRED');
      const valid = await verifyMessage({
        address: challenge.address as Hex,
        message: challenge.message,
        signature: body.signature as Hex,
      }).catch(() => false);
      if (!valid) throw appError('WALLET_SIGNATURE_INVALID');
      return withTransaction(transactor, async (tx) => {
        // a run in progress read this person's recipient before the wallet: its waiting payouts are released too
        await holdSettlementRuns(tx);
        const now = new Date(clock.now());
        // the database decides single use: of two concurrent verifications one claims it
        if (!(await claimWalletChallenge(tx, challenge.id, now))) throw appError('WALLET_CHALLENGE_USED');
        const row = await bindWallet(tx, recipient.id, challenge.address, challenge.chain_id, now);
        const released = await releaseWaitingPayouts(tx, recipient.id, recipient.linked_human_id, now);
        await appendAudit(tx, {
          scope: 'REWARDS',
          action: 'recipient.wallet_bound',
          actor,
          target: recipient.id,
          details: { address: challenge.address, chainId: challenge.chain_id, challengeId: challenge.id, payoutsReleased: released },
          at: now,
        });
        return { ...presentRecipient(row), payoutsReleased: released };
      });
    },
  };
}
