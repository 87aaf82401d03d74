import type { Static } from '@sinclair/typebox';
import type { RewardsPolicy } from '../../rewards/policy/schemas.js';

/**
 * A change of the rewards policy as the console shows it before it is sent: each field with its value now and
 * after. Rates are handled as exact parts per million (the API's own unit), never as floating-point numbers.
 */

type Policy = Static<typeof RewardsPolicy>;
export const ROLES = ['WRITER', 'FACT_CHECK', 'RISK', 'SOURCE_DIVERSITY'] as const;
export type PolicyField = 'status' | 'escrowRate' | (typeof ROLES)[number];
export const PPM = 1_000_000;

/** A rate of parts per million as its shortest decimal (250000 → "0.25", 1000000 → "1"). */
export function rateText(ppm: number): string {
  const whole = Math.floor(ppm / PPM);
  const fraction = String(ppm % PPM)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** A decimal rate as typed, in parts per million: null unless it is 0..1 with at most 6 significant decimals. */
export function ratePpm(text: string): number | null {
  const match = /^\s*(\d{1,7})(?:\.(\d{1,100}))?\s*$/.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > 6) return null;
  const ppm = Number(match[1]) * PPM + Number(fraction.padEnd(6, '0'));
  return ppm <= PPM ? ppm : null;
}

export interface PolicyInput {
  status: Policy['status'];
  escrowRate: string;
  WRITER: string;
  FACT_CHECK: string;
  RISK: string;
  SOURCE_DIVERSITY: string;
  reason?: string | undefined;
}

export interface PolicyChange {
  /** Every field, with its value now and after (`changed` marks the ones that differ). */
  fields: Array<{ field: PolicyField; before: string; after: string; changed: boolean }>;
  /** The API body of the change: only what changes (the four splits go together). */
  body: Record<string, unknown>;
}

/** The change a policy form asks for, or the console's refusal code when it cannot be sent as it is. */
export function policyChange(current: Policy, input: PolicyInput): PolicyChange | { refused: string; params?: Record<string, string> } {
  const escrow = ratePpm(input.escrowRate);
  const splits = ROLES.map((role) => ratePpm(input[role]));
  if (escrow === null || splits.some((s) => s === null)) return { refused: 'CONSOLE_RATE_INVALID' };
  const sum = splits.reduce<number>((a, b) => a + b!, 0);
  if (sum !== PPM) return { refused: 'CONSOLE_SPLITS_SUM', params: { sum: rateText(sum) } };

  const fields: PolicyChange['fields'] = [
    { field: 'status', before: current.status, after: input.status, changed: current.status !== input.status },
    {
      field: 'escrowRate',
      before: rateText(current.escrowRatePpm),
      after: rateText(escrow),
      changed: current.escrowRatePpm !== escrow,
    },
    ...ROLES.map((role, i) => ({
      field: role,
      before: rateText(current.roleSplitsPpm[role]),
      after: rateText(splits[i]!),
      changed: current.roleSplitsPpm[role] !== splits[i],
    })),
  ];
  const body: Record<string, unknown> = {};
  if (fields[0]!.changed) body.status = input.status;
  if (fields[1]!.changed) body.escrowRate = rateText(escrow);
  if (fields.slice(2).some((f) => f.changed)) body.roleSplits = Object.fromEntries(ROLES.map((role, i) => [role, rateText(splits[i]!)]));
  if (Object.keys(body).length === 0) return { refused: 'CONSOLE_POLICY_UNCHANGED' };
  if (input.reason?.trim()) body.reason = input.reason.trim();
  return { fields, body };
}
