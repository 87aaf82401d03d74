import type { PayoutRole, RewardsPolicyVersionsTable } from '../rows.js';
import { validationFailed, type ErrorDetail } from '../../platform/errors.js';
import { toBaseUnits } from '../money/money.js';

/** The rewards policy as the service uses it: rates in parts per million (exact integers). */
export interface Policy {
  version: number;
  status: RewardsPolicyVersionsTable['status'];
  escrowPpm: number;
  splitsPpm: Record<PayoutRole, number>;
  updatedAt: Date;
}

export function policyOf(row: RewardsPolicyVersionsTable): Policy {
  return {
    version: row.version,
    status: row.status,
    escrowPpm: row.escrow_ppm,
    splitsPpm: {
      WRITER: row.writer_ppm,
      FACT_CHECK: row.fact_check_ppm,
      RISK: row.risk_ppm,
      SOURCE_DIVERSITY: row.source_diversity_ppm,
    },
    updatedAt: row.created_at,
  };
}

/**
 * A rate from 0 to 1 with at most 6 decimals, as exact parts per million (0.125 → 125000), from its decimal
 * text (a JSON number's own digits or a decimal string: platform/decimal-input.ts), never through a float. A
 * rate with more decimals cannot be represented exactly and is refused rather than rounded.
 */
export function rateToPpm(text: string, path: string, details: ErrorDetail[]): number {
  const ppm = toBaseUnits(text, 6);
  if (ppm === null || ppm > 1_000_000n) {
    details.push({ path, message: 'must be a number from 0 to 1 with at most 6 decimals' });
    return 0;
  }
  return Number(ppm);
}

/** Role splits to parts per million; they must sum to exactly 1 (1 000 000 ppm), else 400. */
export function splitsToPpm(splits: Record<PayoutRole, string>): Record<PayoutRole, number> {
  const details: ErrorDetail[] = [];
  const ppm = {
    WRITER: rateToPpm(splits.WRITER, '/roleSplits/WRITER', details),
    FACT_CHECK: rateToPpm(splits.FACT_CHECK, '/roleSplits/FACT_CHECK', details),
    RISK: rateToPpm(splits.RISK, '/roleSplits/RISK', details),
    SOURCE_DIVERSITY: rateToPpm(splits.SOURCE_DIVERSITY, '/roleSplits/SOURCE_DIVERSITY', details),
  };
  if (!details.length && ppm.WRITER + ppm.FACT_CHECK + ppm.RISK + ppm.SOURCE_DIVERSITY !== 1_000_000) {
    details.push({ path: '/roleSplits', message: 'the role splits must sum to exactly 1' });
  }
  if (details.length) throw validationFailed(details);
  return ppm;
}

export const ppmToRate = (ppm: number) => ppm / 1_000_000;
