import { createServiceClient } from '../../../sdk/index.js';
import { computeSettlement, contributionKey, type Contribution, type SettlementInputs } from './compute.js';

/**
 * Independent verification of a settlement through the service's public API: read the settlement's
 * published inputs (signed rewards-admin read), recompute the division with the same exact arithmetic, read
 * every payout of the settlement, and compare to the base unit.
 */
export interface VerifyOptions {
  baseUrl: string;
  secret: string;
  actor: { actorId: string; linkedHumanId?: string | undefined };
  settlementId: string;
}

export interface VerifyVerdict {
  match: boolean;
  settlementId: string;
  payoutsChecked: number;
  escrowBase: string;
  mismatches: string[];
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function verifySettlement(options: VerifyOptions): Promise<VerifyVerdict> {
  const client = createServiceClient({ baseUrl: options.baseUrl });
  const signed = { actorId: options.actor.actorId, verified: 'true', linkedHumanId: options.actor.linkedHumanId };
  const read = async (path: string, query: Record<string, string | undefined> = {}) => {
    const res = await client.humanRead<Json>(options.secret, path, { ...signed, ...query });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const settlement = await read(`/v1/rewards/settlements/${encodeURIComponent(options.settlementId)}`);
  const published = settlement.inputs as Json;
  const inputs: SettlementInputs = {
    poolBase: published.poolBase,
    escrowPpm: published.escrowPpm,
    splitsPpm: published.splitsPpm,
    seed: published.seed,
    contributions: (published.contributions as Contribution[]).map((c) => ({
      storyId: c.storyId,
      role: c.role,
      beneficiaryKind: c.beneficiaryKind,
      beneficiaryId: c.beneficiaryId,
      weight: c.weight,
    })),
  };
  const result = computeSettlement(inputs);
  const expected = new Map<string, bigint>();
  inputs.contributions.forEach((c, i) => {
    if (result.amounts[i]! > 0n) expected.set(contributionKey(c), result.amounts[i]!);
  });

  const mismatches: string[] = [];
  let checked = 0;
  let cursor: string | undefined;
  do {
    const page = await read('/v1/rewards/payouts', { settlementId: options.settlementId, limit: '500', cursor });
    for (const p of page.items as Json[]) {
      checked++;
      const key = contributionKey(p as unknown as Contribution);
      const want = expected.get(key);
      if (want === undefined) mismatches.push(`unexpected payout ${p.id} (${key}) of ${p.amount.base}`);
      else if (want !== BigInt(p.amount.base)) mismatches.push(`payout ${p.id} (${key}): published ${p.amount.base}, recomputed ${want}`);
      expected.delete(key);
    }
    cursor = page.nextCursor;
  } while (cursor);
  for (const [key, want] of expected) mismatches.push(`missing payout ${key} of ${want}`);
  if (result.escrowBase.toString() !== settlement.escrow.base) {
    mismatches.push(`escrow: published ${settlement.escrow.base}, recomputed ${result.escrowBase}`);
  }
  return {
    match: mismatches.length === 0,
    settlementId: options.settlementId,
    payoutsChecked: checked,
    escrowBase: result.escrowBase.toString(),
    mismatches,
  };
}
