import type { ModerationStatus } from '../../platform/db/schema.js';
import { isPubliclyVisible } from './story-state.js';

/**
 * Who may read what. Story reads are public, but a story hidden by moderation (QUARANTINED, BLOCKED) does
 * not exist for the public: every read answers 404, never 403, so hiding reveals nothing. A candidate
 * awaiting its scan is readable by id (its bot reads back the packet hash) yet never listed.
 */
export function canReadStory(story: { moderation_status: ModerationStatus }): boolean {
  return isPubliclyVisible(story.moderation_status);
}
