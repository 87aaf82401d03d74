import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { Db } from '../../src/platform/db/database.js';
import type { PayoutStatus } from '../../src/rewards/rows.js';
import type { Person, RewardsApp } from '../settlements/support.js';
import type { DB } from '../../src/tables.js';

/** A settlement row for payouts made by tests (the settlement run itself is tested in test/settlements). */
export async function settlement(db: Db<DB>, payoutCount: number): Promise<string> {
  const id = `st_${randomBytes(8).toString('hex')}`;
  await db
    .insertInto('settlements')
    .values({
      id,
      policy_version: 1,
      pool_base: '1000',
      escrow_base: '0',
      paid_base: '1000',
      token_decimals: 18,
      windows_closed_before: new Date(),
      story_count: 1,
      contribution_count: payoutCount,
      payout_count: payoutCount,
      role_totals: JSON.stringify({}),
      inputs_gzip: new Uint8Array(gzipSync('{}')),
      created_by: 'test',
      created_at: new Date(),
    })
    .execute();
  return id;
}

/** A payout of `amountBase` to a recipient, in the given state (PAYABLE by default). */
export async function payout(
  db: Db<DB>,
  settlementId: string,
  recipientId: string,
  linkedHumanId: string,
  amountBase: bigint,
  status: PayoutStatus = 'PAYABLE',
) {
  // the next seq and the id a run gives its payout (`po-` and the seq)
  const { rows } = await sql<{ seq: string }>`select nextval(pg_get_serial_sequence('payouts', 'seq'))::text as seq`.execute(db);
  const seq = rows[0]!.seq;
  const id = `po-${seq}`;
  await db
    .insertInto('payouts')
    .values({
      id,
      seq,
      settlement_id: settlementId,
      story_id: 'st_story',
      role: 'WRITER',
      beneficiary_kind: 'HUMAN',
      beneficiary_id: linkedHumanId,
      bot_id: null,
      linked_human_id: linkedHumanId,
      recipient_id: recipientId,
      weight: '1',
      amount_base: amountBase,
      status,
      status_reason: null,
      created_at: new Date(),
      updated_at: new Date(),
    })
    .execute();
  return id;
}

/** Makes `who` a recipient whose wallet is `wallet`, bound through the real SIWE challenge; returns the recipient id. */
export async function bindWalletOf(r: RewardsApp, who: Person, wallet: PrivateKeyAccount): Promise<string> {
  const terms = await r.post(who, '/v1/rewards/recipient', { acceptTerms: true, termsVersion: '2026-11' });
  if (terms.status !== 202) throw new Error(`terms: ${terms.status} ${JSON.stringify(terms.body)}`);
  const challenge = await r.post(who, '/v1/rewards/wallets/challenge', { address: wallet.address, chainId: 1337 });
  const verify = await r.post(who, '/v1/rewards/wallets/verify', {
    challengeId: challenge.body.challengeId,
    signature: await wallet.signMessage({ message: challenge.body.message }),
  });
  if (verify.status !== 202) throw new Error(`verify: ${verify.status} ${JSON.stringify(verify.body)}`);
  return terms.body.id as string;
}
