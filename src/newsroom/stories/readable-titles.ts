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
async function readableTitles(stories: Pick<StoriesService, 'readable'>, ids: Iterable<string>): Promise<Map<string, StoryTitle>> {
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

/**
 * A reader's newest acts of one kind (up to `limit`) on stories the public can read, each with its story's title:
 * the "by actor" reads of comments, reward votes and flags (a profile, My activity). Twice `limit` rows are read so
 * that a few acts on stories since hidden do not shorten the list.
 */
export async function newestOnReadable<R extends { story_id: string }>(
  stories: Pick<StoriesService, 'readable'>,
  newest: (limit: number) => Promise<R[]>,
  limit: number,
): Promise<{ row: R; story: StoryTitle }[]> {
  const rows = await newest(limit * 2);
  const visible = await readableTitles(
    stories,
    rows.map((r) => r.story_id),
  );
  return rows
    .flatMap((row) => {
      const story = visible.get(row.story_id);
      return story ? [{ row, story }] : [];
    })
    .slice(0, limit);
}
