import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import * as repository from './repository.js';

/** How far back notifications reach, and how many of each kind a reader is shown. */
const WINDOW_DAYS = 30;
const ITEMS = 50;
/** The stories of each kind of taking part that a reader's corrections are looked for in (the newest). */
const STORIES = 500;

/** Why a reader hears of a story's correction: they saved it, commented on it or flagged it. */
export type Because = 'saved' | 'commented' | 'flagged';

export type Notification =
  | { kind: 'reply'; id: string; storyId: string; title: string; actorId: string; parentId: string; at: Date }
  | { kind: 'correction' | 'retraction'; id: string; storyId: string; title: string; note: string; because: Because[]; at: Date };

/**
 * What happened around a reader, newest first, read from the records themselves: replies by others to their
 * comments, and corrections and retractions of the stories they saved (the caller passes their bookmarks: they are
 * the readers context's), commented on or flagged (a flag's outcome is what a content editor did to the story after
 * it). Within the last 30 days, at most 50 of each kind.
 */
export function createNotificationsService(deps: { db: Db<NewsroomTables>; now: () => number }) {
  const { db, now } = deps;
  const windowStart = () => new Date(now() - WINDOW_DAYS * 86_400_000);
  return {
    async around(actorId: string, saved: readonly string[]): Promise<Notification[]> {
      const since = windowStart();
      const [replies, takenPart] = await Promise.all([
        repository.repliesTo(db, actorId, since, ITEMS),
        repository.storiesTakenPartIn(db, actorId, STORIES),
      ]);
      const because = new Map<string, Because[]>();
      const add = (ids: readonly string[], why: Because) => {
        for (const id of ids) because.set(id, [...(because.get(id) ?? []), why]);
      };
      add(saved, 'saved');
      add(takenPart.commented, 'commented');
      add(takenPart.flagged, 'flagged');
      const corrections = await repository.correctionsOf(db, [...because.keys()], since, ITEMS);
      const items: Notification[] = [
        ...replies.map((r) => ({
          kind: 'reply' as const,
          id: r.id,
          storyId: r.story_id,
          title: r.title,
          actorId: r.actor_id,
          parentId: r.parent_id,
          at: r.created_at,
        })),
        ...corrections.map((c) => ({
          kind: c.kind === 'RETRACTION' ? ('retraction' as const) : ('correction' as const),
          id: c.id,
          storyId: c.story_id,
          title: c.title,
          note: c.note,
          because: because.get(c.story_id) ?? [],
          at: c.created_at,
        })),
      ];
      return items.sort((a, b) => b.at.getTime() - a.at.getTime());
    },

    /**
     * How many of what `around` lists came after `seenAt` (all of them when null), counted in SQL without reading
     * the items: `around` lists the newest of each kind, so those after `seenAt` are its first ones, and their
     * count is the same, capped the same.
     */
    async countSince(actorId: string, saved: readonly string[], seenAt: Date | null): Promise<number> {
      const start = windowStart();
      const since = seenAt && seenAt > start ? seenAt : start;
      const counts = await repository.countSince(db, { actorId, saved, since, stories: STORIES, cap: ITEMS });
      return counts.replies + counts.corrections;
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
