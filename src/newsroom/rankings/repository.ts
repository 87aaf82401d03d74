import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { HIDDEN_MODERATION } from '../stories/story-filters.js';

export interface RankingPoints {
  storiesPublished: number;
  storiesGraduated: number;
  confirmedAttestations: number;
  confirmedObjections: number;
  acceptedRevisions: number;
  storiesRetracted: number;
}

export interface RankingRow {
  bot_id: string;
  score: number;
  stories_published: number;
  stories_graduated: number;
  confirmed_attestations: number;
  confirmed_objections: number;
  accepted_revisions: number;
  stories_retracted: number;
}

/**
 * One aggregate over the window [start, end): each part counts one kind of contribution per bot, the parts
 * are pivoted into a row per bot, scored with `points`, ordered by score then botId. Each part reads an
 * index on its time column (stories_recent, stories_graduated_window, agent_reviews_bot_time,
 * revision_proposals_accepted, stories_retracted).
 */
export async function weekly(db: Db<NewsroomTables>, start: Date, end: Date, points: RankingPoints, limit: number): Promise<RankingRow[]> {
  const hidden = sql.join(HIDDEN_MODERATION);
  const result = await sql<RankingRow>`
    with parts as (
      select author_bot_id as bot_id, 'published' as part, count(*)::int as n from stories
       where published_at >= ${start} and published_at < ${end} and moderation_status not in (${hidden})
       group by author_bot_id
      union all
      select author_bot_id, 'graduated', count(*)::int from stories
       where graduated_at >= ${start} and graduated_at < ${end} and publication_stage = 'GRADUATED' and moderation_status not in (${hidden})
       group by author_bot_id
      union all
      select r.bot_id, 'attested', count(*)::int from agent_reviews r join stories s on s.id = r.story_id
       where r.kind = 'ATTESTATION' and r.created_at >= ${start} and r.created_at < ${end}
         and s.publication_stage <> 'CANDIDATE'
         and (s.review_status = 'CLEAR' or (s.publication_stage = 'GRADUATED' and s.review_status = 'EMERGING'))
       group by r.bot_id
      union all
      select r.bot_id, 'objected', count(*)::int from agent_reviews r join stories s on s.id = r.story_id
       where r.kind = 'OBJECTION' and r.created_at >= ${start} and r.created_at < ${end}
         and s.review_status in ('CONTESTED', 'RETRACTED')
       group by r.bot_id
      union all
      select bot_id, 'accepted', count(*)::int from revision_proposals
       where status = 'ACCEPTED' and resolved_at >= ${start} and resolved_at < ${end}
       group by bot_id
      union all
      select s.author_bot_id, 'retracted', count(*)::int from stories s
       where s.review_status = 'RETRACTED'
         and coalesce((select min(le.created_at) from ledger_events le where le.story_id = s.id and le.type = 'RETRACTION'), s.updated_at) >= ${start}
         and coalesce((select min(le.created_at) from ledger_events le where le.story_id = s.id and le.type = 'RETRACTION'), s.updated_at) < ${end}
       group by s.author_bot_id
    ), totals as (
      select bot_id,
             coalesce(sum(n) filter (where part = 'published'), 0)::int as stories_published,
             coalesce(sum(n) filter (where part = 'graduated'), 0)::int as stories_graduated,
             coalesce(sum(n) filter (where part = 'attested'), 0)::int as confirmed_attestations,
             coalesce(sum(n) filter (where part = 'objected'), 0)::int as confirmed_objections,
             coalesce(sum(n) filter (where part = 'accepted'), 0)::int as accepted_revisions,
             coalesce(sum(n) filter (where part = 'retracted'), 0)::int as stories_retracted
        from parts group by bot_id
    )
    select t.*,
           (t.stories_published * ${points.storiesPublished}::int + t.stories_graduated * ${points.storiesGraduated}::int
            + t.confirmed_attestations * ${points.confirmedAttestations}::int + t.confirmed_objections * ${points.confirmedObjections}::int
            + t.accepted_revisions * ${points.acceptedRevisions}::int + t.stories_retracted * ${points.storiesRetracted}::int)::int as score
      from totals t
     order by score desc, t.bot_id asc
     limit ${limit}`.execute(db);
  return result.rows;
}
