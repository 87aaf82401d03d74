import { packetHash, storyId } from '../common/examples.js';

/** Examples of the assistant orientation for the OpenAPI document (checked by test/platform/openapi-words.test.ts). */

const SIGNED = ['human-signed-write'];

export const gateExample = { open: true, explanation: 'The reward window is open until 2026-05-16T07:40:18.204Z.' };

export const actionOptionExample = {
  value: 'HIGH',
  label: 'HIGH',
  description: 'HIGH: a challenge to one claim of the current packet; an accepted HIGH flag puts the story under review.',
  requiredCredentials: [...SIGNED, 'flag-high-severity'],
};

export const actionTypeExample = {
  id: 'flag',
  label: 'Flag',
  description:
    'Report an issue with a published story or with one of its claims, at severity LOW, MEDIUM or HIGH. One flag per reader per story and claim.',
  method: 'POST',
  route: '/v1/stories/{id}/flags',
  authentication: 'human-signed-write',
  requiredCredentials: SIGNED,
  options: [
    { value: 'LOW', label: 'LOW', description: 'LOW: a minor issue such as a typo or unclear wording.', requiredCredentials: SIGNED },
    {
      value: 'MEDIUM',
      label: 'MEDIUM',
      description: 'MEDIUM: a substantive issue with the story or one of its claims.',
      requiredCredentials: SIGNED,
    },
    actionOptionExample,
  ],
};

export const credentialExample = {
  id: 'flag-high-severity',
  description:
    'A verified human action flag_high_severity:<claimId> for the flagged claim, proven by the same reader (linkedHumanId) and accepted once.',
  humanAction: 'flag_high_severity:<claimId>',
};

export const evidenceLinkExample = {
  id: 'machine-room',
  label: 'Machine room: packet, attestations, objections, revision proposals and safety trace',
  href: `/v1/stories/${storyId}/machine-room`,
};

export const explanationExample = {
  id: 'clear',
  text: 'Review status becomes CLEAR when attestation weight on the current packet reaches 3.',
};

export const thresholdsExample = {
  minAttestations: 3,
  contestedObjectionRatio: 0.4,
  minObjections: 2,
  graduationMinAttestations: 5,
  revisionAcceptVotes: 2,
  revisionRejectVotes: 2,
  rewardWindowHours: 72,
};

export const orientationModuleExample = {
  id: 'ledger',
  title: 'Ledger',
  description: 'Corrections, retractions, challenges and updates of stories, newest first.',
  href: '/v1/modules/ledger',
};

const common = {
  lang: 'en',
  generatedAt: '2026-05-13T15:10:00.000Z',
  purpose:
    'Neutral data for assistants that act for a person: the modules of the newsroom, the actions a reader can take, what each action requires, and the evidence behind each story.',
  neutrality:
    'This data describes options and requirements only. The service takes no position on whether or how anyone votes, flags, rewards or comments; that choice stays with the person.',
  order: 'Actions and options are listed in a fixed order that carries no meaning.',
  modules: [orientationModuleExample],
  credentials: [credentialExample],
};

export const orientationExample = {
  ...common,
  title: 'Assistant orientation',
  actionTypes: [actionTypeExample],
  evidenceLinks: [{ id: 'story', label: 'Story detail', href: '/v1/stories/{id}' }],
  gatingFacts: { thresholds: thresholdsExample, explanations: [explanationExample] },
};

export const storyOrientationExample = {
  ...common,
  title: 'Story orientation',
  actionTypes: [
    {
      ...actionTypeExample,
      route: `/v1/stories/${storyId}/flags`,
      gate: { open: true, explanation: 'The story is published; this action is available.' },
    },
  ],
  evidenceLinks: [evidenceLinkExample],
  storyId,
  status: {
    state: 'PROVISIONAL',
    reviewStatus: 'CLEAR',
    publicationStage: 'PROVISIONAL',
    labels: { state: 'Provisional', reviewStatus: 'Clear', publicationStage: 'Provisional' },
    version: 1,
    packetHash,
  },
  gatingFacts: {
    currentPacketHash: packetHash,
    version: 1,
    rewardWindow: {
      opensAt: '2026-05-13T07:40:18.204Z',
      closesAt: '2026-05-16T07:40:18.204Z',
      active: true,
      explanation: 'The reward window is open until 2026-05-16T07:40:18.204Z.',
    },
    graduation: {
      requiredHumanAction: `graduate:${storyId}`,
      requiredCredentials: ['graduate'],
      explanation: `Graduation needs a provisional story with review status CLEAR, attestation weight of at least 5 on the current packet, and one verified human action graduate:${storyId}.`,
    },
    highSeverityFlags: [
      { claimId: 'cl_3b8e1f6a0c4d9e2b7a5f', requiredHumanAction: 'flag_high_severity:cl_3b8e1f6a0c4d9e2b7a5f' },
      { claimId: 'cl_9d2a6c0f4e8b1d5a3c7e', requiredHumanAction: 'flag_high_severity:cl_9d2a6c0f4e8b1d5a3c7e' },
    ],
    thresholds: thresholdsExample,
    explanations: [explanationExample],
  },
};
