import type { ModerationStatus, PublicationStage } from '../rows.js';
import { notFound } from '../../platform/errors.js';
import { isPubliclyVisible } from './story-state.js';

/**
 * Who may read what. Story reads are public, but a story hidden by moderation (QUARANTINED, BLOCKED) does
 * not exist for the public: every read answers 404, never 403, so hiding reveals nothing. A candidate
 * awaiting its scan is readable by id (its bot reads back the packet hash) yet never listed.
 */
export function canReadStory(story: { moderation_status: ModerationStatus }): boolean {
  return isPubliclyVisible(story.moderation_status);
}

/** Readers react only to published stories: a candidate is not there for them yet (404). */
export function requirePublished<S extends { publication_stage: PublicationStage }>(story: S): S {
  if (story.publication_stage === 'CANDIDATE') throw notFound('story');
  return story;
}
