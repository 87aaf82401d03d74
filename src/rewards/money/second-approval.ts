import { createHash } from 'node:crypto';
import type { HumanActor } from '../../platform/auth/types.js';
import { canonicalize } from '../../platform/canonical-json.js';
import type { Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import { appError } from '../../platform/errors.js';
import type { ExpectedRequest, GateInput } from '../../governance/control-plane/gate.js';
import { MONEY_TARGETS } from '../../governance/control-plane/policy.js';
import { toDisplay } from './money.js';

/**
 * Two people for money (docs/rewards.md, "Two people for money"): a settlement run or a claim batch finalize
 * that pays more than SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS needs a control-plane request (settlement.run or
 * batch.finalize) filed by one rewards admin and approved by another, for exactly the inputs the run or finalize
 * then uses. The request is consumed in the payout's own transaction, so it authorizes one payout only.
 */

/** The threshold in base units: an amount above it needs a second approval (0: every amount). */
export interface SecondApprovalRule {
  aboveBase: bigint;
  decimals: number;
}

export type MoneyAction = 'settlement.run' | 'batch.finalize';

/** Whether `amountBase` needs a second rewards admin. */
export const needsSecondApproval = (rule: SecondApprovalRule, amountBase: bigint): boolean => amountBase > rule.aboveBase;

/** SHA-256 (lowercase hex) of the canonical JSON of what a payout will pay: the digest its preview shows. */
export function inputsDigest(inputs: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalize(inputs), 'utf8').digest('hex');
}

/** The control-plane request a payout of `action` with this payload needs: its action, target and payload. */
export function moneyRequest<A extends MoneyAction>(
  action: A,
  payload: Record<string, string>,
): ExpectedRequest & { action: A; payload: Record<string, string> } {
  return { action, target: MONEY_TARGETS[action]!, payload };
}

/**
 * governance → rewards: the control-plane gate (governance/control-plane/gate.ts), which checks and consumes a
 * request in the payout's own transaction, typed to the control plane's tables at the composition root.
 */
export type MoneyGate = (tx: Tx<RewardsTables>, input: GateInput) => Promise<string | null>;

/**
 * The second-approval gate of a payout, inside its transaction, after its inputs were read. Above the threshold,
 * no request id is 409 SECOND_APPROVAL_REQUIRED naming the request to file; a request id is checked by the
 * control-plane gate (EXECUTED, same action, target and payload hash; 409 CONTROL_PLANE_REQUEST_* otherwise) and
 * consumed. At or below the threshold a request id, when given, is checked and consumed the same way.
 */
export async function passSecondApproval(
  tx: Tx<RewardsTables>,
  gate: MoneyGate,
  input: {
    rule: SecondApprovalRule;
    amountBase: bigint;
    requestId: string | undefined;
    expected: ExpectedRequest;
    actor: HumanActor;
    at: Date;
  },
): Promise<string | null> {
  const { rule, expected } = input;
  const above = needsSecondApproval(rule, input.amountBase);
  if (above && input.requestId === undefined) {
    throw appError('SECOND_APPROVAL_REQUIRED', {
      message: `This pays ${toDisplay(input.amountBase, rule.decimals)} orbs, above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS (${toDisplay(rule.aboveBase, rule.decimals)}): a second rewards admin must approve it first`,
      nextAction: `File POST /v1/admin/control-plane/requests with ${JSON.stringify({ action: expected.action, target: expected.target, payload: expected.payload })} and a reason; once another rewards admin approved it (EXECUTED), send its id as controlPlaneRequestId`,
    });
  }
  return gate(tx, { explicit: above, requestId: input.requestId, expected, actor: input.actor, at: input.at });
}
