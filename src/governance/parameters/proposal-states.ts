import type { ProposalStatus } from '../rows.js';
import { appError } from '../../platform/errors.js';

/** What can happen to a proposal. */
export type ProposalEvent = 'ratify' | 'reject' | 'activate' | 'supersede';

/**
 * The life cycle of a governance proposal, as one table of legal transitions: a proposal is made DRAFT; a
 * verified human ratifies or rejects it; a content admin activates a RATIFIED one (its changes apply). A
 * newer activation of a parameter supersedes the older DRAFT and RATIFIED proposals that change it.
 * ACTIVE, REJECTED and SUPERSEDED are final. Anything not in the table is 409 GOVERNANCE_TRANSITION_INVALID.
 */
export const PROPOSAL_TRANSITIONS: Readonly<Record<ProposalStatus, Partial<Record<ProposalEvent, ProposalStatus>>>> = {
  DRAFT: { ratify: 'RATIFIED', reject: 'REJECTED', supersede: 'SUPERSEDED' },
  RATIFIED: { activate: 'ACTIVE', supersede: 'SUPERSEDED' },
  ACTIVE: {},
  REJECTED: {},
  SUPERSEDED: {},
};

/** The state `event` leads to from `from`; throws 409 GOVERNANCE_TRANSITION_INVALID when the table has no such move. */
export function nextProposalState(from: ProposalStatus, event: ProposalEvent): ProposalStatus {
  const to = PROPOSAL_TRANSITIONS[from][event];
  if (!to) {
    const legal = Object.keys(PROPOSAL_TRANSITIONS[from]);
    throw appError('GOVERNANCE_TRANSITION_INVALID', {
      message: `A ${from} proposal cannot ${event}`,
      details: [
        {
          path: '/status',
          code: from,
          message: legal.length ? `from ${from} the proposal can only: ${legal.join(', ')}` : `${from} is final`,
        },
      ],
    });
  }
  return to;
}

/** The states from which `event` is legal (the bulk supersede of older proposals selects these). */
export function statesAllowing(event: ProposalEvent): ProposalStatus[] {
  return (Object.keys(PROPOSAL_TRANSITIONS) as ProposalStatus[]).filter((state) => PROPOSAL_TRANSITIONS[state][event] !== undefined);
}
