import type { GovernanceTables } from '../tables.js';
import type { Config } from '../../config.js';
import { identityKey } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, Queryable } from '../../platform/db/database.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { passControlPlaneGate } from '../control-plane/gate.js';
import type { ControlPlaneTargets, ProofSpender } from '../control-plane/service.js';
import { boundProof } from '../../identity/humans/proof-body.js';
import type { HumanProofVerifier } from '../../identity/humans/proof-verifier.js';
import { checkChanges, isParameterName, overlayParameters, PARAMETER_NAMES, parameterSpec, type Parameters } from './parameters.js';
import { presentEmergency, presentProposal } from './presenter.js';
import { nextProposalState, statesAllowing } from './proposal-states.js';
import {
  countOpenProposals,
  findActiveEmergency,
  insertProposal,
  lastClearedEmergency,
  lockGovernance,
  lockProposal,
  openProposals,
  parameterOrigins,
  parameterRows,
  proposalExists,
  supersedeOlderProposals,
  updateProposal,
  upsertParameter,
} from './repository.js';
import type { ActivateBody, ActivationResponse, Proposal, ProposalBody, RatifyBody, StateResponse } from './schemas.js';

/** The governance proposals as the control plane sees its targets (wired at the composition root). */
export function controlPlaneTargets(db: Queryable<GovernanceTables>): ControlPlaneTargets {
  return { proposalExists: (id) => proposalExists(db, id) };
}

export interface GovernanceDeps {
  db: Db<GovernanceTables>;
  transactor: Transactor<GovernanceTables>;
  clock: Clock;
  config: Config;
  verifier: HumanProofVerifier;
  proofs: ProofSpender;
  /** The deployment's parameter defaults (deploymentDefaults(config)). */
  defaults: Parameters;
}

/**
 * Governance of the parameters: the state, and proposals through their life cycle (proposal-states.ts).
 * A proposal is DRAFT when made, RATIFIED (or REJECTED) by a verified human whose proof is bound to it, and
 * ACTIVE when a content admin activates it: its changes are written in one transaction, with the audit
 * entries and (explicit control plane) the consumed control-plane request.
 */
export function createGovernanceService(deps: GovernanceDeps) {
  const { db, transactor, clock, config, verifier, proofs, defaults } = deps;

  return {
    /** How many proposals wait to be ratified (DRAFT) and to be activated (RATIFIED). */
    async waiting(): Promise<{ draft: number; ratified: number }> {
      return countOpenProposals(db);
    },

    /** Every parameter with its value, default, range and the proposal that last changed it; the emergency; open proposals. */
    async state(): Promise<StateResponse> {
      const [rows, origins, active, lastCleared, open] = await Promise.all([
        parameterRows(db),
        parameterOrigins(db),
        findActiveEmergency(db),
        lastClearedEmergency(db),
        openProposals(db, 100),
      ]);
      const values = overlayParameters(defaults, rows);
      const originOf = new Map(origins.map((o) => [o.name, o]));
      return {
        parameters: PARAMETER_NAMES.map((name) => {
          const { description, ...range } = parameterSpec(name);
          const origin = originOf.get(name);
          return {
            name,
            description,
            value: values.effective[name],
            baseValue: values.base[name],
            default: defaults[name],
            range,
            updatedByProposalId: origin?.updated_by_proposal_id ?? null,
            updatedAt: origin ? origin.updated_at.toISOString() : null,
            emergencyOverride: values.overridden.has(name),
          };
        }),
        emergency: presentEmergency(active, lastCleared),
        openProposals: open.map(presentProposal),
        controlPlane: {
          explicitEnabled: config.controlPlane.explicitEnabled,
          approvalMin: config.controlPlane.approvalMin,
          requesterCannotApprove: config.controlPlane.enforceRequesterCannotApprove,
        },
      };
    },

    /** A DRAFT proposal; an unknown parameter or an invalid value is 400 naming it under /changes/<name>. */
    async propose(actor: HumanActor, body: ProposalBody): Promise<Proposal> {
      const problems = checkChanges(body.changes);
      if (problems.length) throw validationFailed(problems, 'The proposal changes are not valid');
      return withTransaction(transactor, async (tx) => {
        const at = new Date(clock.now());
        const row = await insertProposal(tx, {
          id: newId('gp'),
          title: body.title,
          rationale: body.rationale,
          changes: JSON.stringify(body.changes),
          created_by: identityKey(actor),
          created_by_actor_id: actor.actorId,
          created_at: at,
          updated_at: at,
        });
        await appendAudit(tx, {
          scope: 'GOVERNANCE',
          action: 'proposal.created',
          actor,
          target: row.id,
          details: { title: row.title, changes: row.changes },
          at,
        });
        return presentProposal(row);
      });
    },

    /**
     * Ratifies (or, with decision REJECT, rejects) a DRAFT proposal. The ratifier is a verified human with a
     * linkedHumanId bound to the actorId, and the body carries a proof with action
     * `governance_ratify:<proposalId>` that the configured verifier accepts; its nullifier is recorded once
     * (a replay is 409 NULLIFIER_REUSED) and consumed by this decision in the same transaction.
     */
    async ratify(actor: HumanActor, id: string, body: RatifyBody): Promise<Proposal> {
      if (!actor.verified || !actor.linkedHumanId || actor.tier === 'L0') {
        throw appError('VERIFIED_ACTOR_REQUIRED', {
          message:
            'Ratification needs a verified human: sign verified=true with the linkedHumanId your World ID login bound to your actorId',
        });
      }
      const linkedHumanId = actor.linkedHumanId;
      const proof = boundProof(body, `governance_ratify:${id}`);
      if (!(await proposalExists(db, id))) throw notFound('proposal');
      await verifier.verify(proof);
      const decision = body.decision ?? 'RATIFY';
      return withTransaction(transactor, async (tx) => {
        const at = new Date(clock.now());
        // the nullifier first: the same proof again is NULLIFIER_REUSED, whatever the proposal's state
        const verifiedActionId = await proofs.spend(tx, proof, linkedHumanId, `proposal:${id}`, at);
        const proposal = await lockProposal(tx, id);
        if (!proposal) throw notFound('proposal');
        const status = nextProposalState(proposal.status, decision === 'RATIFY' ? 'ratify' : 'reject');
        const row = await updateProposal(tx, id, {
          status,
          decided_by: linkedHumanId,
          decided_at: at,
          decision_action_id: verifiedActionId,
          updated_at: at,
        });
        await appendAudit(tx, {
          scope: 'GOVERNANCE',
          action: decision === 'RATIFY' ? 'proposal.ratified' : 'proposal.rejected',
          actor,
          target: id,
          details: { from: proposal.status, to: status, provider: proof.provider, verifiedActionId },
          at,
        });
        return presentProposal(row);
      });
    },

    /**
     * Activates a RATIFIED proposal: in one transaction, under the governance lock, it passes the control-plane
     * gate, writes every change (governance_parameters, updated_by_proposal_id), supersedes the older open
     * proposals that change any of the same parameters, and audits all of it. The newsroom reads parameters
     * per request, so the new values apply from the next request on, on every instance.
     */
    async activate(actor: HumanActor, id: string, body: ActivateBody): Promise<ActivationResponse> {
      return withTransaction(transactor, async (tx) => {
        const at = new Date(clock.now());
        await lockGovernance(tx);
        const proposal = await lockProposal(tx, id);
        if (!proposal) throw notFound('proposal');
        const status = nextProposalState(proposal.status, 'activate');
        const problems = checkChanges(proposal.changes);
        if (problems.length) throw appError('GOVERNANCE_CHANGES_INVALID', { details: problems });
        const controlPlaneRequestId = await passControlPlaneGate(tx, {
          explicit: config.controlPlane.explicitEnabled,
          requestId: body.controlPlaneRequestId,
          expected: { action: 'governance.activate', target: id, payload: { changes: proposal.changes } },
          actor,
          at,
        });
        const before = overlayParameters(defaults, await parameterRows(tx)).base;
        const names = Object.keys(proposal.changes).filter(isParameterName).sort();
        const applied = names.map((name) => ({ name, from: before[name], to: proposal.changes[name]! }));
        for (const change of applied)
          await upsertParameter(tx, { name: change.name, value: change.to, defaultValue: defaults[change.name], proposalId: id, at });
        const superseded = await supersedeOlderProposals(tx, { id, seq: proposal.seq, names, from: statesAllowing('supersede'), at });
        const row = await updateProposal(tx, id, {
          status,
          activated_by: identityKey(actor),
          activated_at: at,
          activation_request_id: controlPlaneRequestId,
          updated_at: at,
        });
        await appendAudit(tx, {
          scope: 'GOVERNANCE',
          action: 'proposal.activated',
          actor,
          target: id,
          details: { applied, superseded, controlPlaneRequestId },
          at,
        });
        for (const older of superseded) {
          await appendAudit(tx, {
            scope: 'GOVERNANCE',
            action: 'proposal.superseded',
            actor,
            target: older,
            details: { supersededBy: id, parameters: names },
            at,
          });
        }
        return { proposal: presentProposal(row), applied, superseded, controlPlaneRequestId };
      });
    },
  };
}
