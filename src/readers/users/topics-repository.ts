import { sql } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import type { TopicKind } from '../rows.js';

/** SQL of followed topics (table user_topics). Every query is scoped to one actor. */

export interface TopicRow {
  topic: string;
  kind: TopicKind;
  label: string;
  created_at: Date;
}

/**
 * Serializes the topic writes of one reader until the transaction ends (a transaction-scoped advisory lock,
 * shared by every instance): the count-then-insert of a follow cannot race another follow of the same reader
 * past the per-reader bound.
 */
export async function lockReaderTopics(tx: Tx<ReadersTables>, actorId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`user_topics:${actorId}`}, 0))`.execute(tx);
}

export async function findTopic(db: Queryable<ReadersTables>, actorId: string, topic: string): Promise<TopicRow | undefined> {
  return db
    .selectFrom('user_topics')
    .select(['topic', 'kind', 'label', 'created_at'])
    .where('actor_id', '=', actorId)
    .where('topic', '=', topic)
    .executeTakeFirst();
}

export async function countTopics(db: Queryable<ReadersTables>, actorId: string): Promise<number> {
  const row = await db
    .selectFrom('user_topics')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('actor_id', '=', actorId)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Inserts the follow; the primary key (actor_id, topic) refuses a second row for the same normalized topic. */
export async function insertTopic(tx: Tx<ReadersTables>, row: TopicRow & { actor_id: string }): Promise<TopicRow | undefined> {
  return tx
    .insertInto('user_topics')
    .values(row)
    .onConflict((oc) => oc.columns(['actor_id', 'topic']).doNothing())
    .returning(['topic', 'kind', 'label', 'created_at'])
    .executeTakeFirst();
}

export async function deleteTopic(tx: Tx<ReadersTables>, actorId: string, topic: string): Promise<TopicRow | undefined> {
  return tx
    .deleteFrom('user_topics')
    .where('actor_id', '=', actorId)
    .where('topic', '=', topic)
    .returning(['topic', 'kind', 'label', 'created_at'])
    .executeTakeFirst();
}

/** Every topic of `actorId`, oldest follow first (the list and the export). */
export async function allTopics(db: Queryable<ReadersTables>, actorId: string): Promise<TopicRow[]> {
  return db
    .selectFrom('user_topics')
    .select(['topic', 'kind', 'label', 'created_at'])
    .where('actor_id', '=', actorId)
    .orderBy('created_at')
    .orderBy('topic')
    .execute();
}
