import { controlPlaneTargets } from './governance/parameters/service.js';
import { deploymentDefaults } from './governance/parameters/request-parameters.js';
import { readParameters } from './governance/parameters/parameters.js';
import type { ControlPlaneTargets } from './governance/control-plane/service.js';
import type { ActionStories } from './identity/humans/service.js';
import { recomputeConsensus } from './newsroom/consensus/service.js';
import type { PublishReleased } from './newsroom/moderation/quarantine-service.js';
import { publishStory } from './newsroom/publish/publish-story.js';
import type { RecordRead } from './newsroom/stories/index.js';
import { canReadStory } from './newsroom/stories/policy.js';
import { lockVisibleStory } from './newsroom/stories/story-lock.js';
import { createHistoryService } from './readers/users/history-service.js';
import type { AppContext } from './platform/context.js';

/**
 * The ports through which a lower context reaches a higher one, wired here and nowhere else: each module
 * declares what it needs (an interface or a function type next to its service) and this file hands it the
 * implementation of the module that provides it. See docs/architecture.md.
 */
export interface Ports {
  /** identity/humans → newsroom: a verified action's story (visibility, and graduate: consensus). */
  actionStories: ActionStories;
  /** governance/control-plane → governance/parameters: whether a request's target proposal exists. */
  controlPlaneTargets: ControlPlaneTargets;
  /** newsroom/moderation → newsroom/publish: a released candidate is published. */
  publishReleased: PublishReleased;
  /** newsroom/stories → readers/users: a signed reader's read goes into their history. */
  recordRead: RecordRead;
}

export function createPorts(ctx: AppContext): Ports {
  const db = ctx.database.db;
  const defaults = deploymentDefaults(ctx.config);
  const history = createHistoryService({ transactor: ctx.transactor, clock: ctx.clock });
  return {
    actionStories: {
      canRead: canReadStory,
      async onGraduateAction(tx, events, storyId, at, record) {
        const params = await readParameters(tx, defaults);
        // the story first, as every story writer locks it (one lock order, no deadlock)
        const story = await lockVisibleStory(tx, events, storyId);
        const recorded = await record();
        if (story.publication_stage === 'PROVISIONAL') await recomputeConsensus(tx, events, story, params, at);
        return recorded;
      },
    },
    controlPlaneTargets: controlPlaneTargets(db),
    publishReleased: publishStory,
    recordRead: (actor, storyId) => history.recordRead(actor, storyId),
  };
}
