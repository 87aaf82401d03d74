import { Type, type Static } from '@sinclair/typebox';
import { LangParam } from '../../platform/i18n/index.js';
import { DateTime, LangSchema, Nullable } from '../../platform/schemas.js';
import { StoryParams } from '../common/schemas.js';
import { PublicationStageSchema, ReviewStatusSchema, StoryLabels, StoryStateSchema } from '../stories/schemas.js';

/**
 * Orientation data for human-controlled assistants. Every field states a fact or a requirement; no field
 * ranks, scores or orders the choices a reader has (lists are in a fixed order that carries no meaning).
 */

/** `lang` only: other parameters are refused (400), the public read cache keys bodies by the validated query. */
export const OrientationQuery = Type.Object({ lang: LangParam }, { additionalProperties: false });
export const StoryOrientationParams = StoryParams;

export const Gate = Type.Object(
  {
    open: Type.Boolean({ description: 'Whether the service accepts this action for the story now' }),
    explanation: Type.String({ description: 'Localized statement of the gating fact' }),
  },
  { title: 'Gate' },
);

export const ActionOption = Type.Object(
  {
    value: Type.String(),
    label: Type.String(),
    description: Type.Optional(Type.String()),
    requiredCredentials: Type.Array(Type.String(), { description: 'Ids of entries in `credentials`' }),
  },
  { title: 'ActionOption' },
);

export const ActionType = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    description: Type.String(),
    method: Type.Literal('POST'),
    route: Type.String(),
    authentication: Type.Literal('human-signed-write'),
    requiredCredentials: Type.Array(Type.String(), { description: 'Ids of entries in `credentials`' }),
    options: Type.Array(ActionOption),
    gate: Type.Optional(Gate),
  },
  { title: 'ActionType' },
);
export type ActionType = Static<typeof ActionType>;

export const Credential = Type.Object(
  {
    id: Type.String(),
    description: Type.String(),
    humanAction: Type.Optional(Type.String({ description: 'The verified human action format the credential binds to' })),
  },
  { title: 'Credential' },
);

export const EvidenceLink = Type.Object({ id: Type.String(), label: Type.String(), href: Type.String() }, { title: 'EvidenceLink' });

export const Explanation = Type.Object({ id: Type.String(), text: Type.String() }, { title: 'Explanation' });

export const Thresholds = Type.Object(
  {
    minAttestations: Type.Number(),
    contestedObjectionRatio: Type.Number(),
    minObjections: Type.Number(),
    graduationMinAttestations: Type.Number(),
    revisionAcceptVotes: Type.Number(),
    revisionRejectVotes: Type.Number(),
    rewardWindowHours: Type.Number(),
  },
  { title: 'Thresholds' },
);

const Module = Type.Object(
  { id: Type.String(), title: Type.String(), description: Type.String(), href: Type.String() },
  { title: 'OrientationModule' },
);

const common = {
  lang: LangSchema,
  generatedAt: DateTime,
  title: Type.String(),
  purpose: Type.String(),
  neutrality: Type.String(),
  order: Type.String(),
  modules: Type.Array(Module),
  actionTypes: Type.Array(ActionType),
  credentials: Type.Array(Credential),
  evidenceLinks: Type.Array(EvidenceLink),
};

export const OrientationResponse = Type.Object(
  {
    ...common,
    gatingFacts: Type.Object({ thresholds: Thresholds, explanations: Type.Array(Explanation) }),
  },
  { title: 'Orientation' },
);
export type OrientationResponse = Static<typeof OrientationResponse>;

export const StoryOrientationResponse = Type.Object(
  {
    ...common,
    storyId: Type.String(),
    status: Type.Object({
      state: Nullable(StoryStateSchema),
      reviewStatus: ReviewStatusSchema,
      publicationStage: PublicationStageSchema,
      labels: StoryLabels,
      version: Type.Integer(),
      packetHash: Type.String(),
    }),
    gatingFacts: Type.Object({
      currentPacketHash: Type.String(),
      version: Type.Integer(),
      rewardWindow: Type.Object({
        opensAt: Nullable(DateTime),
        closesAt: Nullable(DateTime),
        active: Type.Boolean(),
        explanation: Type.String(),
      }),
      graduation: Type.Object({
        requiredHumanAction: Type.String(),
        requiredCredentials: Type.Array(Type.String()),
        explanation: Type.String(),
      }),
      highSeverityFlags: Type.Array(Type.Object({ claimId: Type.String(), requiredHumanAction: Type.String() }), {
        description: 'One per claim of the current packet',
      }),
      thresholds: Thresholds,
      explanations: Type.Array(Explanation),
    }),
  },
  { title: 'StoryOrientation' },
);
export type StoryOrientationResponse = Static<typeof StoryOrientationResponse>;
