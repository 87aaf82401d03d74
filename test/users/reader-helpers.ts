import type { ServiceClient } from '../../sdk/index.js';
import { TEST_SECRET } from '../helpers/app.js';
import type { Json } from '../helpers/json.js';

/**
 * A reader as the newsroom front end signs for them (sdk/human.ts): every read carries the actor in its
 * signed query, every write in its signed body.
 */
export function readerAs(client: ServiceClient, actorId: string, extra: { verified?: boolean; linkedHumanId?: string } = {}) {
  const verified = extra.verified ?? false;
  const actorQuery = { actorId, verified: String(verified), ...(extra.linkedHumanId ? { linkedHumanId: extra.linkedHumanId } : {}) };
  const actorBody = { actorId, verified, ...(extra.linkedHumanId ? { linkedHumanId: extra.linkedHumanId } : {}) };
  const read = (path: string, query: Record<string, string | undefined> = {}) =>
    client.humanRead<Json>(TEST_SECRET, path, { ...actorQuery, ...query });
  const write = (path: string, body: Record<string, unknown> = {}, method = 'POST') =>
    client.humanWrite<Json>(TEST_SECRET, path, { ...actorBody, ...body }, method);
  return {
    actorId,
    read,
    write,
    preferences: (preferences: Record<string, unknown>) => write('/v1/users/me/preferences', { preferences }),
    bookmark: (storyId: string) => write('/v1/users/me/bookmarks', { storyId }),
    unbookmark: (storyId: string) => write(`/v1/users/me/bookmarks/${encodeURIComponent(storyId)}`, {}, 'DELETE'),
    bookmarks: (query: Record<string, string | undefined> = {}) => read('/v1/users/me/bookmarks', query),
    follow: (topic: string, kind?: 'ROOM' | 'TAG') => write('/v1/users/me/topics', { topic, ...(kind ? { kind } : {}) }),
    unfollow: (topic: string) => write(`/v1/users/me/topics/${encodeURIComponent(topic)}`, {}, 'DELETE'),
    topics: () => read('/v1/users/me/topics'),
    export: () => read('/v1/users/me/export'),
    clearHistory: () => write('/v1/users/me/history/clear'),
    readStory: (storyId: string) => read(`/v1/stories/${encodeURIComponent(storyId)}`),
    feed: (query: Record<string, string | undefined> = {}) => read('/v1/feed', query),
  };
}

export type Reader = ReturnType<typeof readerAs>;

/** Every bookmark of a reader, walking the keyset pages. */
export async function allBookmarkPages(reader: Reader, limit = 2): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page += 1) {
    const res = await reader.bookmarks({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    if (res.status !== 200) throw new Error(`bookmarks page: ${res.status} ${JSON.stringify(res.body)}`);
    items.push(...(res.body.items as Json[]));
    cursor = res.body.nextCursor as string | undefined;
    if (!cursor) return items;
  }
  throw new Error('bookmark pages never ended');
}
