import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError, validationFailed } from '../../platform/errors.js';
import { normalizeTopic, topicProblem } from './topic-name.js';
import {
  TOPICS_PER_READER,
  type Topic,
  type TopicFollowBody,
  type TopicFollowed,
  type TopicRemoved,
  type TopicsList,
} from './topic-schemas.js';
import { allTopics, countTopics, deleteTopic, findTopic, insertTopic, lockReaderTopics, type TopicRow } from './topics-repository.js';

export const presentTopic = (row: TopicRow): Topic => ({
  topic: row.topic,
  kind: row.kind,
  label: row.label,
  followedAt: row.created_at.toISOString(),
});

/**
 * A reader's followed topics (rooms or free tags), at most TOPICS_PER_READER each. A topic is named by its
 * normalized form (topic-name.ts), so every spelling of it is the same follow. Acts on the signed actor only.
 */
export function createTopicsService(deps: { db: Db<ReadersTables>; transactor: Transactor<ReadersTables>; clock: Clock }) {
  const { db, transactor, clock } = deps;
  return {
    /** Follows a topic; following it again (any spelling) answers the existing follow unchanged. */
    async follow(actor: HumanActor, body: TopicFollowBody): Promise<TopicFollowed> {
      const kind = body.kind ?? 'TAG';
      const topic = normalizeTopic(body.topic);
      const problem = topicProblem(topic, kind);
      if (problem) throw validationFailed([{ path: '/topic', message: problem }]);
      return withTransaction(transactor, async (tx) => {
        await lockReaderTopics(tx, actor.actorId);
        const existing = await findTopic(tx, actor.actorId, topic);
        if (existing) return { actorId: actor.actorId, ...presentTopic(existing), created: false };
        if ((await countTopics(tx, actor.actorId)) >= TOPICS_PER_READER) {
          throw appError('TOPIC_LIMIT_REACHED', { message: `A reader may follow at most ${TOPICS_PER_READER} topics` });
        }
        const label = body.topic.trim().replace(/\s+/gu, ' ');
        const row = await insertTopic(tx, { actor_id: actor.actorId, topic, kind, label, created_at: new Date(clock.now()) });
        // under the reader's lock nothing else inserts this topic; the primary key is the last word all the same
        if (!row) throw new Error('topic follow raced past the reader lock');
        return { actorId: actor.actorId, ...presentTopic(row), created: true };
      });
    },

    async list(actor: HumanActor): Promise<TopicsList> {
      const rows = await allTopics(db, actor.actorId);
      return { actorId: actor.actorId, items: rows.map(presentTopic), limit: TOPICS_PER_READER };
    },

    /** Whether the reader follows the topic named by any spelling of it (the story page's "Following"). */
    async follows(actor: HumanActor, text: string): Promise<boolean> {
      return (await findTopic(db, actor.actorId, normalizeTopic(text))) !== undefined;
    },

    /** Unfollows the topic named by any spelling of it; a topic not followed is not an error (`removed: false`). */
    async unfollow(actor: HumanActor, text: string): Promise<TopicRemoved> {
      const topic = normalizeTopic(text);
      const removed = await withTransaction(transactor, async (tx) => {
        await lockReaderTopics(tx, actor.actorId);
        return deleteTopic(tx, actor.actorId, topic);
      });
      return {
        actorId: actor.actorId,
        topic,
        removed: Boolean(removed),
        kind: removed?.kind ?? null,
        followedAt: removed ? removed.created_at.toISOString() : null,
      };
    },
  };
}
