import type { Clock } from '../../platform/clock.js';
import { t, type Lang } from '../../platform/i18n/index.js';
import { consensusThresholds, type Parameters } from '../../governance/parameters/parameters.js';
import { allModuleHeadings } from '../home/module-directory.js';
import { rewardWindowOf, storyLabels } from '../stories/presenter.js';
import type { StoriesService } from '../stories/service.js';
import { storyState } from '../stories/story-state.js';
import { presentActions, presentCredentials, presentEvidenceLinks, type GateKind } from './actions.js';
import type { OrientationResponse, StoryOrientationResponse } from './schemas.js';

function thresholds(p: Parameters): OrientationResponse['gatingFacts']['thresholds'] {
  return {
    ...consensusThresholds(p),
    revisionAcceptVotes: p['revision.acceptVotes'],
    revisionRejectVotes: p['revision.rejectVotes'],
    rewardWindowHours: p.rewardWindowHours,
  };
}

/** The rules behind the gates, in a fixed order, with the live governance thresholds filled in. */
function explanations(lang: Lang, p: Parameters, story?: { id: string; packetHash: string }) {
  return [
    { id: 'reward-window', text: t(lang, 'gate.rewardWindow.global', { hours: p.rewardWindowHours }) },
    { id: 'clear', text: t(lang, 'gate.clear', { minAttestations: p['consensus.minAttestations'] }) },
    {
      id: 'contested',
      text: t(lang, 'gate.contested', { minObjections: p['consensus.minObjections'], ratio: p['consensus.contestedObjectionRatio'] }),
    },
    {
      id: 'graduation',
      text: t(lang, 'gate.graduation', { min: p['consensus.graduationMinAttestations'], action: `graduate:${story?.id ?? '<storyId>'}` }),
    },
    { id: 'flag-high', text: t(lang, 'gate.flagHigh') },
    { id: 'packet-hash', text: story ? t(lang, 'gate.packetHash', { packetHash: story.packetHash }) : t(lang, 'gate.packetHash.global') },
    { id: 'revision', text: t(lang, 'gate.revision', { acceptVotes: p['revision.acceptVotes'], rejectVotes: p['revision.rejectVotes'] }) },
  ];
}

function preamble(lang: Lang, now: Date, p: Parameters, story: boolean) {
  return {
    lang,
    generatedAt: now.toISOString(),
    title: t(lang, story ? 'orientation.story.title' : 'orientation.title'),
    purpose: t(lang, 'orientation.purpose'),
    neutrality: t(lang, 'orientation.neutrality'),
    order: t(lang, 'orientation.order'),
    modules: allModuleHeadings(lang, p.rewardWindowHours),
  };
}

/**
 * Neutral orientation for assistants acting for a person: what exists, what each action needs and whether
 * it is open. It never chooses a direction for a vote, flag or reward.
 */
export function createOrientationService(deps: { stories: StoriesService; clock: Clock; parameters: () => Promise<Parameters> }) {
  const { stories, clock, parameters } = deps;
  return {
    async global(lang: Lang): Promise<OrientationResponse> {
      const p = await parameters();
      return {
        ...preamble(lang, new Date(clock.now()), p, false),
        actionTypes: presentActions(lang),
        credentials: presentCredentials(lang),
        evidenceLinks: presentEvidenceLinks(lang),
        gatingFacts: { thresholds: thresholds(p), explanations: explanations(lang, p) },
      };
    },

    /** Orientation for one story: its status, the gates of each action now, and its evidence. */
    async story(id: string, lang: Lang): Promise<StoryOrientationResponse> {
      const story = await stories.readableWithPacket(id);
      const p = await parameters();
      const now = new Date(clock.now());
      const published = story.publication_stage !== 'CANDIDATE';
      const window = rewardWindowOf(story, now);
      const windowText =
        !published || !window.closesAt
          ? t(lang, 'gate.rewardWindow.notOpened', { hours: p.rewardWindowHours })
          : t(lang, window.active ? 'gate.rewardWindow.open' : 'gate.rewardWindow.closed', { closesAt: window.closesAt });
      const gate = (kind: GateKind) => {
        if (kind === 'always') return { open: true, explanation: t(lang, 'gate.always.open') };
        if (!published) return { open: false, explanation: t(lang, 'gate.published.closed') };
        if (kind === 'published') return { open: true, explanation: t(lang, 'gate.published.open') };
        return { open: window.active, explanation: windowText };
      };
      const claims = (story.packet as { claims?: { id: string }[] } | null)?.claims ?? [];
      const graduateAction = `graduate:${story.id}`;
      return {
        ...preamble(lang, now, p, true),
        storyId: story.id,
        status: {
          state: storyState(story.publication_stage, story.review_status),
          reviewStatus: story.review_status,
          publicationStage: story.publication_stage,
          labels: storyLabels(story.publication_stage, story.review_status, lang),
          version: story.current_version,
          packetHash: story.current_packet_hash,
        },
        actionTypes: presentActions(lang, story.id, gate),
        credentials: presentCredentials(lang),
        evidenceLinks: presentEvidenceLinks(lang, story.id),
        gatingFacts: {
          currentPacketHash: story.current_packet_hash,
          version: story.current_version,
          rewardWindow: { ...window, explanation: windowText },
          graduation: {
            requiredHumanAction: graduateAction,
            requiredCredentials: ['graduate'],
            explanation: t(lang, 'gate.graduation', { min: p['consensus.graduationMinAttestations'], action: graduateAction }),
          },
          highSeverityFlags: claims.map((c) => ({ claimId: c.id, requiredHumanAction: `flag_high_severity:${c.id}` })),
          thresholds: thresholds(p),
          explanations: explanations(lang, p, { id: story.id, packetHash: story.current_packet_hash }),
        },
      };
    },
  };
}
