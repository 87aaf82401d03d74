import { AppError } from '../../platform/errors.js';
import type { StoriesService } from './service.js';

/** A story as a reader's list of their own acts names it: a link and its title in the story's language. */
export interface StoryTitle {
  id: string;
  title: string;
  lang: string;
}

/**
 * The stories among `ids` the public can read (through `readable`, the story reads' one access check), by id: a
 * story since hidden or never published is absent, so a list of a reader's acts never names it.
 */
export async function readableTitles(stories: Pick<StoriesService, 'readable'>, ids: Iterable<string>): Promise<Map<string, StoryTitle>> {
  const titles = new Map<string, StoryTitle>();
  for (const storyId of new Set(ids)) {
    const story = await stories.readable(storyId).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
      throw err;
    });
    if (story) titles.set(storyId, { id: story.id, title: story.title, lang: story.lang });
  }
  return titles;
}
