import { sql } from 'kysely';
import type { ReaderInterests } from '../../newsroom/feed/service.js';

/**
 * Readers' side of the newsroom feed's ReaderInterests port: a reader's followed topics, preference and history
 * as uncorrelated subqueries on readers' tables, which the signed trending feed embeds in its one statement.
 * The composition root wires it; no other context imports it.
 */
export const feedInterests: ReaderInterests = {
  followedRooms: (actorId) => sql`(select t.topic from user_topics t where t.actor_id = ${actorId} and t.kind = 'ROOM')`,
  // a tag with no searchable word adds nothing
  followedTags: (actorId) => sql`(select string_agg('(' || q::text || ')', ' | ')::tsquery
    from (select phraseto_tsquery('simple', t.topic) as q from user_topics t where t.actor_id = ${actorId} and t.kind = 'TAG') tags
    where q::text <> '')`,
  historyKept: (actorId) => sql<boolean>`exists (
    select 1 from user_preferences p where p.actor_id = ${actorId} and p.preferences -> 'personalization' = 'true'::jsonb)`,
  readStories: (actorId) => sql`(select h.story_id from reading_history h where h.actor_id = ${actorId})`,
};
