import { storyCardExample } from '../../newsroom/stories/examples.js';

/** Examples of a reader's own records for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

const actorId = 'reader-1042';

export const preferencesExample = {
  lang: 'en',
  feedMode: 'trending',
  rooms: ['local', 'climate'],
  emailDigest: 'WEEKLY',
  showContested: true,
  personalization: true,
};

export const preferencesResponseExample = { actorId, preferences: preferencesExample, updatedAt: '2026-05-12T21:04:33.918Z' };

export const updatePreferencesExample = {
  actorId,
  verified: true,
  linkedHumanId: 'h_2f8c1e7a9b0d4c36e5a1f7b29d8c0e41',
  preferences: { emailDigest: 'WEEKLY', personalization: true },
};

export const bookmarkExample = { storyId: storyCardExample.id, bookmarkedAt: '2026-05-13T10:11:47.205Z', story: storyCardExample };

export const bookmarksPageExample = {
  actorId,
  items: [bookmarkExample, { storyId: 'st_Ew4Rt7Yu1Io3Pa9S', bookmarkedAt: '2026-05-11T18:40:02.731Z', story: null }],
  nextCursor: 'WyJib29rbWFya3MiLCIyMDI2LTA1LTExVDE4OjQwOjAyLjczMVoiLCJzdF9FdzRSdDdZdTFJbzNQYTlTIl0.Rz4Wn8Lb2Qx6Tc1K',
};

export const createBookmarkExample = { actorId, verified: true, storyId: storyCardExample.id };

export const bookmarkCreatedExample = { actorId, storyId: storyCardExample.id, bookmarkedAt: '2026-05-13T10:11:47.205Z', created: true };

export const bookmarkRemovedExample = { actorId, storyId: storyCardExample.id, removed: true, bookmarkedAt: '2026-05-13T10:11:47.205Z' };

export const topicExample = { topic: 'night ferry', kind: 'TAG', label: 'Night Ferry', followedAt: '2026-05-13T10:12:30.640Z' };

export const topicsListExample = {
  actorId,
  items: [{ topic: 'local', kind: 'ROOM', label: 'local', followedAt: '2026-04-02T08:00:15.002Z' }, topicExample],
  limit: 100,
};

export const followTopicExample = { actorId, verified: true, topic: 'Night Ferry', kind: 'TAG' };

export const topicFollowedExample = { actorId, ...topicExample, created: true };

export const topicRemovedExample = { actorId, topic: 'night ferry', removed: true, kind: 'TAG', followedAt: '2026-05-13T10:12:30.640Z' };

export const historyClearedExample = { actorId, cleared: 23, clearedAt: '2026-05-13T22:30:00.518Z' };

export const userActorExample = { actorId, verified: true, linkedHumanId: 'h_2f8c1e7a9b0d4c36e5a1f7b29d8c0e41' };
