import { Type, type Static } from '@sinclair/typebox';
import { LangParam } from '../../platform/i18n/index.js';
import { DateTime, LangSchema, Nullable } from '../../platform/schemas.js';
import { StoryParams } from '../common/schemas.js';
import { PublicationStageSchema, ReviewStatusSchema, StoryLabels, StoryStateSchema } from '../stories/schemas.js';
import {
  actionOptionExample,
  actionTypeExample,
  credentialExample,
  evidenceLinkExample,
  explanationExample,
  gateExample,
  orientationExample,
  orientationModuleExample,
  storyOrientationExample,
  thresholdsExample,
} from './examples.js';

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
  {
    title: 'Gate',
    examples: [gateExample],
    description: 'Whether the service accepts an action on a story now, and the fact that decides it, localized.',
  },
);

export const ActionOption = Type.Object(
  {
    value: Type.String(),
    label: Type.String(),
    description: Type.Optional(Type.String()),
    requiredCredentials: Type.Array(Type.String(), { description: 'Ids of entries in `credentials`' }),
  },
  {
    title: 'ActionOption',
    examples: [actionOptionExample],
    description: 'One option of a reader action (a flag severity, a vote), with the credentials it requires.',
  },
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
  {
    title: 'ActionType',
    examples: [actionTypeExample],
    description:
      'A reader action an assistant can take for a person: its route, method, authentication, required credentials and options, and for a story its gate.',
  },
);
export type ActionType = Static<typeof ActionType>;

export const Credential = Type.Object(
  {
    id: Type.String(),
    description: Type.String(),
    humanAction: Type.Optional(Type.String({ description: 'The verified human action format the credential binds to' })),
  },
  {
    title: 'Credential',
    examples: [credentialExample],
    description:
      'A credential an action may require (a signed actor, a verified human action), with the verified human action format it binds to.',
  },
);

export const EvidenceLink = Type.Object(
  { id: Type.String(), label: Type.String(), href: Type.String() },
  { title: 'EvidenceLink', examples: [evidenceLinkExample], description: 'A link to evidence an assistant can read before acting.' },
);

export const Explanation = Type.Object(
  { id: Type.String(), text: Type.String() },
  { title: 'Explanation', examples: [explanationExample], description: 'A localized statement of one gating fact.' },
);

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
  {
    title: 'Thresholds',
    examples: [thresholdsExample],
    description: 'The governance thresholds in force that gate consensus, revisions and the reward window.',
  },
);

const Module = Type.Object(
  { id: Type.String(), title: Type.String(), description: Type.String(), href: Type.String() },
  {
    title: 'OrientationModule',
    examples: [orientationModuleExample],
    description: 'A module of the newsroom, with its localized title and description and its path.',
  },
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
  {
    title: 'Orientation',
    examples: [orientationExample],
    description:
      'Neutral orientation for assistants acting for a person: modules, action types, credentials, gating facts and evidence links, with no recommendation.',
  },
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
  {
    title: 'StoryOrientation',
    examples: [storyOrientationExample],
    description:
      "Neutral orientation for one story: its status, each action's gate, the verified human actions its gates name, thresholds and evidence links.",
  },
);
export type StoryOrientationResponse = Static<typeof StoryOrientationResponse>;
