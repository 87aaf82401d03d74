import { identityKey } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, Queryable } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { validationFailed, type ErrorDetail } from '../../platform/errors.js';
import { policyOf, ppmToRate, rateToPpm, splitsToPpm, type Policy } from './policy.js';
import { currentPolicy, insertPolicyVersion, lockPolicy } from './policy-repository.js';
import type { PolicyUpdateBody } from './schemas.js';

export function presentPolicy(p: Policy, decimals: number) {
  return {
    version: p.version,
    status: p.status,
    escrowRate: ppmToRate(p.escrowPpm),
    roleSplits: {
      WRITER: ppmToRate(p.splitsPpm.WRITER),
      FACT_CHECK: ppmToRate(p.splitsPpm.FACT_CHECK),
      RISK: ppmToRate(p.splitsPpm.RISK),
      SOURCE_DIVERSITY: ppmToRate(p.splitsPpm.SOURCE_DIVERSITY),
    },
    escrowRatePpm: p.escrowPpm,
    roleSplitsPpm: p.splitsPpm,
    tokenDecimals: decimals,
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** The policy in force, read through `q` (a settlement's transaction, or the database for a preview). */
export async function readCurrentPolicy(q: Queryable<RewardsTables>): Promise<Policy> {
  return policyOf(await currentPolicy(q));
}

/** The rewards policy: a public read, and versioned, audited changes by rewards admins. */
export function createPolicyService(deps: {
  db: Db<RewardsTables>;
  transactor: Transactor<RewardsTables>;
  clock: Clock;
  decimals: number;
}) {
  const { db, transactor, clock, decimals } = deps;
  return {
    async current() {
      return presentPolicy(policyOf(await currentPolicy(db)), decimals);
    },

    /** Writes the next version: the current policy with the given fields changed; audited on the REWARDS chain. */
    async update(actor: HumanActor, body: PolicyUpdateBody) {
      if (body.status === undefined && body.escrowRate === undefined && body.roleSplits === undefined) {
        throw validationFailed([{ path: '', message: 'give at least one of status, escrowRate, roleSplits' }]);
      }
      const details: ErrorDetail[] = [];
      const escrowPpm = body.escrowRate === undefined ? undefined : rateToPpm(body.escrowRate, '/escrowRate', details);
      if (details.length) throw validationFailed(details);
      const splitsPpm = body.roleSplits === undefined ? undefined : splitsToPpm(body.roleSplits);
      return withTransaction(transactor, async (tx) => {
        await lockPolicy(tx);
        const before = policyOf(await currentPolicy(tx));
        const now = new Date(clock.now());
        const next: Policy = {
          version: before.version + 1,
          status: body.status ?? before.status,
          escrowPpm: escrowPpm ?? before.escrowPpm,
          splitsPpm: splitsPpm ?? before.splitsPpm,
          updatedAt: now,
        };
        await insertPolicyVersion(tx, {
          version: next.version,
          status: next.status,
          escrow_ppm: next.escrowPpm,
          writer_ppm: next.splitsPpm.WRITER,
          fact_check_ppm: next.splitsPpm.FACT_CHECK,
          risk_ppm: next.splitsPpm.RISK,
          source_diversity_ppm: next.splitsPpm.SOURCE_DIVERSITY,
          reason: body.reason ?? null,
          created_by: identityKey(actor),
          created_at: now,
        });
        await appendAudit(tx, {
          scope: 'REWARDS',
          action: 'policy.updated',
          actor,
          target: `rewards-policy:${next.version}`,
          details: {
            from: { version: before.version, status: before.status, escrowPpm: before.escrowPpm, splitsPpm: before.splitsPpm },
            to: { version: next.version, status: next.status, escrowPpm: next.escrowPpm, splitsPpm: next.splitsPpm },
            reason: body.reason ?? null,
          },
          at: now,
        });
        return presentPolicy(next, decimals);
      });
    },
  };
}
