import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HumanActorBody, HumanActorQuery, Nullable } from '../../platform/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { HumanProofBody } from '../../identity/humans/proof-body.js';

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
  { title: 'GovernanceProposalRequest', additionalProperties: false },
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
    additionalProperties: false,
    description:
      'A verified human proof with action governance_ratify:<proposalId> (docs/api-conventions.md, "Human proofs"; docs/governance.md)',
  },
);
export type RatifyBody = Static<typeof RatifyBody>;

export const ActivateBody = Type.Object(
  { ...HumanActorBody, controlPlaneRequestId: ControlPlaneRequestId },
  { title: 'ActivateProposalRequest', additionalProperties: false },
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
  { title: 'EvaluateGovernanceRequest', additionalProperties: false },
);
export type EvaluateBody = Static<typeof EvaluateBody>;

export const ClearBody = Type.Object(
  {
    ...HumanActorBody,
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    controlPlaneRequestId: ControlPlaneRequestId,
  },
  { title: 'ClearEmergencyRequest', additionalProperties: false },
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
  { title: 'GovernanceProposal' },
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
  { title: 'HealthSignal' },
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
  { title: 'EmergencyState' },
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
  { title: 'GovernanceState' },
);
export type StateResponse = Static<typeof StateResponse>;

export const ActivationResponse = Type.Object(
  {
    proposal: Proposal,
    applied: Type.Array(Type.Object({ name: Type.String(), from: Type.Number(), to: Type.Number() })),
    superseded: Type.Array(Type.String(), { description: 'older DRAFT or RATIFIED proposals that changed one of these parameters' }),
    controlPlaneRequestId: Nullable(Type.String()),
  },
  { title: 'ProposalActivation' },
);
export type ActivationResponse = Static<typeof ActivationResponse>;

const RecommendedAction = Type.Object(
  {
    action: StringEnum(['governance.emergency.apply', 'governance.emergency.clear']),
    target: Type.String(),
    payload: Type.Record(Type.String(), Type.Unknown()),
    reason: Type.String(),
  },
  { title: 'RecommendedAction' },
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
  { title: 'GovernanceEvaluation' },
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
  { title: 'EmergencyCleared' },
);
export type ClearResponse = Static<typeof ClearResponse>;
