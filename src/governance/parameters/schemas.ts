import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HumanActorBody, HumanActorQuery, Nullable } from '../../platform/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { HumanProofBody } from '../../identity/humans/proof-body.js';
import {
  emergencyClearedExample,
  emergencyStateExample,
  governanceEvaluationExample,
  governanceProposalExample,
  governanceProposalRequestExample,
  governanceStateExample,
  healthSignalExample,
  proposalActivationExample,
  ratifyProposalExample,
  recommendedActionExample,
} from './examples.js';

/** Governance administration: state, proposals, evaluation and emergency measures. */

const PROPOSAL_STATUSES = ['DRAFT', 'RATIFIED', 'ACTIVE', 'REJECTED', 'SUPERSEDED'] as const;

export const ProposalParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) });

const ControlPlaneRequestId = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'An EXECUTED control-plane request for exactly this change; required when FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED=1',
  }),
);

const Changes = Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.Number(), {
  minProperties: 1,
  description: '{ "<parameter>": <value> }: names and ranges as GET /v1/admin/governance/state lists them',
});

export const StateQuery = Type.Object(HumanActorQuery, { additionalProperties: false });

export const ProposalBody = Type.Object(
  {
    ...HumanActorBody,
    title: Type.String({ minLength: 1, maxLength: 200 }),
    rationale: Type.String({ minLength: 1, maxLength: 5000 }),
    changes: Changes,
  },
  {
    title: 'GovernanceProposalRequest',
    description: 'Body of a governance proposal: a title, the rationale and the parameter changes `{ "<parameter>": <value> }`.',
    examples: [governanceProposalRequestExample],
    additionalProperties: false,
  },
);
export type ProposalBody = Static<typeof ProposalBody>;

export const RatifyBody = Type.Object(
  {
    ...HumanActorBody,
    ...HumanProofBody,
    decision: Type.Optional(StringEnum(['RATIFY', 'REJECT'], { description: 'RATIFY (default) or REJECT the DRAFT proposal' })),
  },
  {
    title: 'RatifyProposalRequest',
    examples: [ratifyProposalExample],
    additionalProperties: false,
    description:
      'A verified human proof with action governance_ratify:<proposalId> (docs/api-conventions.md, "Human proofs"; docs/governance.md)',
  },
);
export type RatifyBody = Static<typeof RatifyBody>;

export const ActivateBody = Type.Object(
  { ...HumanActorBody, controlPlaneRequestId: ControlPlaneRequestId },
  {
    title: 'ActivateProposalRequest',
    description:
      'Body that activates a RATIFIED proposal: the actor fields and, with the explicit control plane, the EXECUTED governance.activate request.',
    additionalProperties: false,
  },
);
export type ActivateBody = Static<typeof ActivateBody>;

export const EvaluateBody = Type.Object(
  {
    ...HumanActorBody,
    controlPlaneRequestId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'An EXECUTED governance.emergency.apply request: apply its measures now (docs/governance.md)',
      }),
    ),
  },
  {
    title: 'EvaluateGovernanceRequest',
    description:
      'Body of an evaluation: the actor fields and, to apply approved measures, the EXECUTED governance.emergency.apply request.',
    additionalProperties: false,
  },
);
export type EvaluateBody = Static<typeof EvaluateBody>;

export const ClearBody = Type.Object(
  {
    ...HumanActorBody,
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    controlPlaneRequestId: ControlPlaneRequestId,
  },
  {
    title: 'ClearEmergencyRequest',
    description:
      'Body that clears the active emergency: the actor fields, why, and with the explicit control plane the EXECUTED governance.emergency.clear request.',
    additionalProperties: false,
  },
);
export type ClearBody = Static<typeof ClearBody>;

export const Proposal = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    rationale: Type.String(),
    changes: Type.Record(Type.String(), Type.Number()),
    status: StringEnum(PROPOSAL_STATUSES),
    createdBy: Type.String(),
    createdAt: DateTime,
    decidedBy: Nullable(Type.String({ description: 'the verified human (linkedHumanId) who ratified or rejected it' })),
    decidedAt: Nullable(DateTime),
    activatedBy: Nullable(Type.String()),
    activatedAt: Nullable(DateTime),
    activationRequestId: Nullable(Type.String()),
    supersededBy: Nullable(Type.String()),
    supersededAt: Nullable(DateTime),
  },
  {
    title: 'GovernanceProposal',
    description:
      'A proposal to change governance parameters, with its life cycle: DRAFT, then RATIFIED or REJECTED by a verified human, then ACTIVE when a content admin activates it, or SUPERSEDED by a later activated proposal on the same parameters.',
    examples: [governanceProposalExample],
  },
);
export type Proposal = Static<typeof Proposal>;

const Overlay = Type.Record(Type.String(), Type.Number());

export const Signal = Type.Object(
  {
    name: StringEnum(['flagSurge', 'objectionSpike', 'payoutAnomalies', 'collusion']),
    available: Type.Boolean(),
    tripped: Type.Boolean(),
    reason: Type.Optional(Type.String({ description: 'why the signal is not available yet' })),
    lastHour: Type.Optional(Type.Integer()),
    previous24Hours: Type.Optional(Type.Integer()),
    previousHourlyAverage: Type.Optional(Type.Number()),
    threshold: Type.Optional(
      Type.Object({
        ratio: Type.Number(),
        minimum: Type.Integer(),
        required: Type.Number({ description: 'max(minimum, ratio × previousHourlyAverage): lastHour at or above it trips the signal' }),
        parameters: Type.Array(Type.String()),
      }),
    ),
    collusion: Type.Optional(
      Type.Object(
        {
          analysisId: Type.String(),
          analyzedAt: DateTime,
          fresh: Type.Boolean({ description: 'analyzed in the last 24 hours: only a fresh analysis can trip the signal' }),
          flaggedClusters: Type.Integer(),
          flaggedMembers: Type.Integer(),
          minimumMembers: Type.Integer({ description: 'emergency.collusionMinMembers' }),
          parameters: Type.Array(Type.String()),
        },
        { description: 'the collusion signal: the latest cartel analysis (docs/integrity.md)' },
      ),
    ),
  },
  {
    title: 'HealthSignal',
    description:
      'One health signal of an evaluation (flag surge, objection spike, payout anomalies, collusion): whether it is measured, whether it tripped, and the numbers and thresholds that decided it.',
    examples: [healthSignalExample],
  },
);
export type Signal = Static<typeof Signal>;

export const EmergencyState = Type.Object(
  {
    active: Type.Boolean(),
    id: Nullable(Type.String()),
    overlay: Overlay,
    signals: Type.Array(Signal),
    activatedAt: Nullable(DateTime),
    activatedBy: Nullable(Type.String()),
    activationRequestId: Nullable(Type.String()),
    lastClearedAt: Nullable(DateTime),
  },
  {
    title: 'EmergencyState',
    description:
      'The emergency state of the newsroom: whether emergency measures are active, their overlay of raised thresholds, the signals that tripped them and who applied them.',
    examples: [emergencyStateExample],
  },
);
export type EmergencyState = Static<typeof EmergencyState>;

export const StateResponse = Type.Object(
  {
    parameters: Type.Array(
      Type.Object({
        name: Type.String(),
        description: Type.String(),
        value: Type.Number({ description: 'in force now (emergency overlay included)' }),
        baseValue: Type.Number({ description: 'without emergency measures: the default or the value governance set' }),
        default: Type.Number(),
        range: Type.Object({ min: Type.Number(), max: Type.Number(), integer: Type.Boolean() }),
        updatedByProposalId: Nullable(Type.String()),
        updatedAt: Nullable(DateTime),
        emergencyOverride: Type.Boolean(),
      }),
    ),
    emergency: EmergencyState,
    openProposals: Type.Array(Proposal, { description: 'DRAFT and RATIFIED proposals, oldest first (at most 100)' }),
    controlPlane: Type.Object({ explicitEnabled: Type.Boolean(), approvalMin: Type.Integer(), requesterCannotApprove: Type.Boolean() }),
  },
  {
    title: 'GovernanceState',
    description:
      'Everything governance decides, as it stands: every parameter with its value in force, default and range, the emergency, the open proposals and the control-plane settings.',
    examples: [governanceStateExample],
  },
);
export type StateResponse = Static<typeof StateResponse>;

export const ActivationResponse = Type.Object(
  {
    proposal: Proposal,
    applied: Type.Array(Type.Object({ name: Type.String(), from: Type.Number(), to: Type.Number() })),
    superseded: Type.Array(Type.String(), { description: 'older DRAFT or RATIFIED proposals that changed one of these parameters' }),
    controlPlaneRequestId: Nullable(Type.String()),
  },
  {
    title: 'ProposalActivation',
    description:
      'The outcome of an activation: the ACTIVE proposal, each parameter written with its previous and new value, and the older proposals it superseded.',
    examples: [proposalActivationExample],
  },
);
export type ActivationResponse = Static<typeof ActivationResponse>;

const RecommendedAction = Type.Object(
  {
    action: StringEnum(['governance.emergency.apply', 'governance.emergency.clear']),
    target: Type.String(),
    payload: Type.Record(Type.String(), Type.Unknown()),
    reason: Type.String(),
  },
  {
    title: 'RecommendedAction',
    description:
      'A control-plane request that an evaluation recommends filing, ready to send as it is to POST /v1/admin/control-plane/requests.',
    examples: [recommendedActionExample],
  },
);
export type RecommendedAction = Static<typeof RecommendedAction>;

export const EvaluationResponse = Type.Object(
  {
    evaluatedAt: DateTime,
    explicitControlPlane: Type.Boolean(),
    signals: Type.Array(Signal),
    tripped: Type.Array(Type.String()),
    mutatingApplied: Type.Boolean(),
    applied: Nullable(Type.Object({ emergencyId: Type.String(), overlay: Overlay, controlPlaneRequestId: Nullable(Type.String()) })),
    note: Type.Optional(Type.String()),
    recommendedControlPlaneActions: Type.Array(RecommendedAction, {
      description: 'ready to file with POST /v1/admin/control-plane/requests (explicit control plane only)',
    }),
    emergency: EmergencyState,
  },
  {
    title: 'GovernanceEvaluation',
    description:
      'The report of an evaluation: each health signal measured now, what tripped, whether emergency measures were applied or which control-plane requests are recommended, and the emergency state after it.',
    examples: [governanceEvaluationExample],
  },
);
export type EvaluationResponse = Static<typeof EvaluationResponse>;

export const ClearResponse = Type.Object(
  {
    cleared: Type.Object({
      id: Type.String(),
      overlay: Overlay,
      activatedAt: DateTime,
      clearedAt: DateTime,
      clearedBy: Type.String(),
      reason: Nullable(Type.String()),
    }),
    controlPlaneRequestId: Nullable(Type.String()),
    emergency: EmergencyState,
  },
  {
    title: 'EmergencyCleared',
    description: 'The outcome of clearing the emergency: the cleared emergency record and the emergency state now.',
    examples: [emergencyClearedExample],
  },
);
export type ClearResponse = Static<typeof ClearResponse>;
