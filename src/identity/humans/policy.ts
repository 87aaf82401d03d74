/**
 * Which actions the identity routes accept. The login takes only the configured login action; governance
 * verification takes the three newsroom action formats. The actions that carry their
 * own proof elsewhere (`governance_ratify:<proposalId>`, `control_plane_approve:<requestId>`) are
 * refused here, so a proof made for one of them can never be recorded as a newsroom action.
 */

const ID = '[A-Za-z0-9_-]{1,64}';
const GOVERNANCE_ACTION = new RegExp(`^(graduate|reward|flag_high_severity):(${ID})$`);

export type GovernanceAction = { kind: 'graduate' | 'reward'; storyId: string } | { kind: 'flag_high_severity'; claimId: string };

/** The governance action `action` names, or null when it is not one of the three formats. */
export function parseGovernanceAction(action: string): GovernanceAction | null {
  const match = GOVERNANCE_ACTION.exec(action);
  if (!match) return null;
  const [, kind, id] = match as unknown as [string, 'graduate' | 'reward' | 'flag_high_severity', string];
  return kind === 'flag_high_severity' ? { kind, claimId: id } : { kind, storyId: id };
}

export const GOVERNANCE_ACTION_FORMATS = ['graduate:<storyId>', 'reward:<storyId>', 'flag_high_severity:<claimId>'] as const;
