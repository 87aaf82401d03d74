import { t, type Lang, type MessageKey } from '../../platform/i18n/index.js';
import type { ActionType } from './schemas.js';

/**
 * The reader actions an assistant can take for its person, in a fixed order that never depends on a
 * story's state or content (the orientation test checks it). Gates are facts about whether the service
 * accepts an action now, never advice about taking it.
 */

export const CREDENTIALS = [
  { id: 'human-signed-write', description: 'credential.humanSignedWrite' },
  { id: 'flag-high-severity', description: 'credential.flagHighSeverity', humanAction: 'flag_high_severity:<claimId>' },
  { id: 'graduate', description: 'credential.graduate', humanAction: 'graduate:<storyId>' },
  { id: 'human-proof', description: 'credential.humanProof' },
] as const satisfies readonly { id: string; description: MessageKey; humanAction?: string }[];

export type GateKind = 'published' | 'reward-window' | 'always';

interface ActionSpec {
  id: string;
  label: MessageKey;
  description: MessageKey;
  /** Route with `{id}` for the story. */
  route: string;
  requiredCredentials: string[];
  options: { value: string; label?: MessageKey; description?: MessageKey; requiredCredentials: string[] }[];
  gate: GateKind;
}

const SIGNED = ['human-signed-write'];

export const ACTIONS: readonly ActionSpec[] = [
  {
    id: 'comment',
    label: 'action.comment.label',
    description: 'action.comment.description',
    route: '/v1/stories/{id}/comments',
    requiredCredentials: SIGNED,
    options: [],
    gate: 'published',
  },
  {
    id: 'flag',
    label: 'action.flag.label',
    description: 'action.flag.description',
    route: '/v1/stories/{id}/flags',
    requiredCredentials: SIGNED,
    options: [
      { value: 'LOW', description: 'action.flag.severity.LOW', requiredCredentials: SIGNED },
      { value: 'MEDIUM', description: 'action.flag.severity.MEDIUM', requiredCredentials: SIGNED },
      { value: 'HIGH', description: 'action.flag.severity.HIGH', requiredCredentials: [...SIGNED, 'flag-high-severity'] },
    ],
    gate: 'published',
  },
  {
    id: 'reward-vote',
    label: 'action.rewardVote.label',
    description: 'action.rewardVote.description',
    route: '/v1/stories/{id}/reward-votes',
    requiredCredentials: SIGNED,
    options: [
      { value: 'UP', label: 'action.rewardVote.option.UP', requiredCredentials: SIGNED },
      { value: 'DOWN', label: 'action.rewardVote.option.DOWN', requiredCredentials: SIGNED },
    ],
    gate: 'reward-window',
  },
  {
    id: 'bookmark',
    label: 'action.bookmark.label',
    description: 'action.bookmark.description',
    route: '/v1/users/me/bookmarks',
    requiredCredentials: SIGNED,
    options: [],
    gate: 'published',
  },
  {
    id: 'follow-topic',
    label: 'action.followTopic.label',
    description: 'action.followTopic.description',
    route: '/v1/users/me/topics',
    requiredCredentials: SIGNED,
    options: [],
    gate: 'always',
  },
  {
    id: 'verify-human-action',
    label: 'action.verifyHumanAction.label',
    description: 'action.verifyHumanAction.description',
    route: '/v1/human-proof/verify',
    requiredCredentials: [...SIGNED, 'human-proof'],
    options: [
      { value: 'graduate:<storyId>', requiredCredentials: ['human-proof'] },
      { value: 'reward:<storyId>', requiredCredentials: ['human-proof'] },
      { value: 'flag_high_severity:<claimId>', requiredCredentials: ['human-proof'] },
    ],
    gate: 'published',
  },
];

/** The localized actions; `storyId` fills the routes and options, `gate` supplies each gate for a story. */
export function presentActions(
  lang: Lang,
  storyId?: string,
  gate?: (kind: GateKind) => { open: boolean; explanation: string },
): ActionType[] {
  const fill = (text: string) => (storyId ? text.replace('{id}', encodeURIComponent(storyId)).replace('<storyId>', storyId) : text);
  return ACTIONS.map((action) => ({
    id: action.id,
    label: t(lang, action.label),
    description: t(lang, action.description),
    method: 'POST' as const,
    route: fill(action.route),
    authentication: 'human-signed-write' as const,
    requiredCredentials: action.requiredCredentials,
    options: action.options.map((o) => ({
      value: fill(o.value),
      label: o.label ? t(lang, o.label) : fill(o.value),
      ...(o.description ? { description: t(lang, o.description) } : {}),
      requiredCredentials: o.requiredCredentials,
    })),
    ...(gate ? { gate: gate(action.gate) } : {}),
  }));
}

export function presentCredentials(lang: Lang) {
  return CREDENTIALS.map((c) => ({
    id: c.id,
    description: t(lang, c.description),
    ...('humanAction' in c ? { humanAction: c.humanAction } : {}),
  }));
}

/** Evidence reads of a story (`{id}` filled for a story orientation). */
export function presentEvidenceLinks(lang: Lang, storyId?: string) {
  const base = storyId ? `/v1/stories/${encodeURIComponent(storyId)}` : '/v1/stories/{id}';
  const links: [string, MessageKey, string][] = [
    ['story', 'evidence.story', base],
    ['sources', 'evidence.sources', `${base}/sources`],
    ['machine-room', 'evidence.machineRoom', `${base}/machine-room`],
    ['versions', 'evidence.versions', `${base}/versions`],
    ['consensus', 'evidence.consensus', `${base}/consensus`],
    ['comments', 'evidence.comments', `${base}/comments`],
    ['flags', 'evidence.flags', `${base}/flags`],
    ['ledger', 'evidence.ledger', '/v1/ledger/events'],
  ];
  return links.map(([id, label, href]) => ({ id, label: t(lang, label), href }));
}
