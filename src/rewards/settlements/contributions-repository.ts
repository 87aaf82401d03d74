import { sql, type RawBuilder } from 'kysely';
import { readThroughCursor } from '../../platform/db/bulk/cursor-read.js';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { PayoutRole } from '../../platform/db/schema.js';

/**
 * SQL that gathers what a settlement divides: the stories whose reward window has closed and that no
 * settlement has covered, their reward-vote weight, and the units of work of each role (docs/rewards.md
 * "Who is paid for what"). Every query restates the same `eligible` set, so all read one consistent list.
 */

export interface EligibleStory {
  id: string;
  review_status: string;
  graduated_at: Date | null;
  reward_window_ends_at: Date;
  /** Σ UP reward-vote weights − Σ DOWN weights (tier weights), floored at 0. */
  vote_weight: string;
}

/**
 * Receives the work units of one (story, role, beneficiary), one row at a time: fields, not an object, since a run
 * reads a million of them. `owner` is the person who owns the beneficiary: a bot's owner (bot_payout_owners: the
 * person who claimed it, else the linked human of its AgentBook verification), a flagger's linked human (or null).
 * `units` is a positive integer as decimal text.
 */
export type WorkUnitsVisitor = (
  storyId: string,
  role: PayoutRole,
  beneficiaryKind: 'BOT' | 'HUMAN',
  beneficiaryId: string,
  owner: string | null,
  units: string,
) => void;

/**
 * A row of the work-units query: the story, the owner, and the rest packed in one text, `units role kind
 * beneficiary` (the first three never hold a space; the beneficiary is the rest of the text, whatever it holds).
 * The driver makes a string per field of each of a million rows; three fields instead of six take about a quarter
 * off the process's time to read them.
 */
interface PackedUnits {
  story_id: string;
  unit: string;
  owner: string | null;
}

/** Hands the fields of each packed row to `visit`. */
function unpack(rows: readonly PackedUnits[], visit: WorkUnitsVisitor): void {
  for (const { story_id, unit, owner } of rows) {
    const a = unit.indexOf(' ');
    const b = unit.indexOf(' ', a + 1);
    const c = unit.indexOf(' ', b + 1);
    if (a < 1 || c < 0) throw new Error(`settlement work units: not a packed row: ${unit.slice(0, 80)}`);
    visit(
      story_id,
      unit.slice(a + 1, b) as PayoutRole,
      unit.slice(b + 1, c) as 'BOT' | 'HUMAN',
      unit.slice(c + 1),
      owner,
      unit.slice(0, a),
    );
  }
}

function eligible(now: Date): RawBuilder<unknown> {
  return sql`eligible as (
    select s.id, s.review_status, s.graduated_at, s.current_packet_hash, s.reward_window_ends_at
    from stories s
    where s.published_at is not null and s.reward_window_ends_at is not null and s.reward_window_ends_at <= ${now}
      and not exists (select 1 from settled_stories x where x.story_id = s.id)
  )`;
}

export async function eligibleStories(db: Queryable, now: Date): Promise<EligibleStory[]> {
  const { rows } = await sql<EligibleStory>`
    with ${eligible(now)}
    select e.id, e.review_status, e.graduated_at, e.reward_window_ends_at,
      greatest(0, coalesce(sum(case when v.vote = 'UP' then v.weight else -v.weight end), 0))::text as vote_weight
    from eligible e left join reward_votes v on v.story_id = e.id
    group by e.id, e.review_status, e.graduated_at, e.reward_window_ends_at
    order by e.reward_window_ends_at, e.id`.execute(db);
  return rows;
}

/**
 * Units of work per (story, role, beneficiary). WRITER: packets authored (the first version and accepted
 * revisions). FACT_CHECK: attestation weight on the packet that graduated. RISK: weight of objections that
 * were upheld (the story ended CONTESTED, UNDER_REVIEW or RETRACTED, or the packet objected to was replaced)
 * and 1 per flag upheld (the story went UNDER_REVIEW or was RETRACTED). SOURCE_DIVERSITY: 1 per independent
 * source host a bot's packet introduced first. A retracted story pays RISK only.
 */
function workUnitsQuery(now: Date): RawBuilder<PackedUnits> {
  return sql<PackedUnits>`
    with ${eligible(now)},
    graduated as (
      select e.id as story_id,
        (select v.packet_hash from story_versions v where v.story_id = e.id and v.created_at <= e.graduated_at
          order by v.version desc limit 1) as packet_hash
      from eligible e where e.graduated_at is not null and e.review_status <> 'RETRACTED'
    ),
    hosts as (
      select distinct on (src.story_id, src.host) src.story_id, v.created_by as bot_id
      from (
        select ss.story_id, ss.added_in_version, ss.created_at, ss.id,
          lower(regexp_replace(substring(ss.url from '^[A-Za-z][A-Za-z0-9+.-]*://([^/:?#@]+)'), '^www\\.', '')) as host
        from story_sources ss join eligible e on e.id = ss.story_id
        where ss.active and ss.status not in ('UNRELIABLE', 'RETRACTED') and e.review_status <> 'RETRACTED'
      ) src
      join story_versions v on v.story_id = src.story_id and v.version = src.added_in_version
      where src.host is not null and src.host <> ''
      order by src.story_id, src.host, src.added_in_version, src.created_at, src.id
    ),
    bot_units as (
      select v.story_id, 'WRITER' as role, v.created_by as bot_id, count(*)::bigint as units
      from story_versions v join eligible e on e.id = v.story_id
      where e.review_status <> 'RETRACTED'
      group by v.story_id, v.created_by
      union all
      -- one review per bot and packet (unique), so one row per story and attester: nothing to add up or sort
      select r.story_id, 'FACT_CHECK', r.bot_id, r.weight::bigint
      from agent_reviews r join graduated g on g.story_id = r.story_id and g.packet_hash = r.packet_hash
      where r.kind = 'ATTESTATION'
      union all
      select r.story_id, 'RISK', r.bot_id, sum(r.weight)::bigint
      from agent_reviews r join eligible e on e.id = r.story_id
      where r.kind = 'OBJECTION'
        and (e.review_status in ('CONTESTED', 'UNDER_REVIEW', 'RETRACTED') or r.packet_hash <> e.current_packet_hash)
      group by r.story_id, r.bot_id
      union all
      select story_id, 'SOURCE_DIVERSITY', bot_id, count(*)::bigint from hosts group by story_id, bot_id
    )
    select u.story_id, u.units::text || ' ' || u.role || ' BOT ' || u.bot_id as unit, b.linked_human_id as owner
    from bot_units u left join bot_payout_owners b on b.bot_id = u.bot_id
    where u.units > 0
    union all
    select f.story_id, count(*)::text || ' RISK HUMAN ' || coalesce(f.linked_human_id, f.actor_id), max(f.linked_human_id)
    from flags f join eligible e on e.id = f.story_id
    where e.review_status in ('UNDER_REVIEW', 'RETRACTED')
    group by f.story_id, coalesce(f.linked_human_id, f.actor_id)`;
}

/** The work units in one query (a preview, on a connection of its own), handed to a visitor once it is ready. */
export async function workUnits(db: Queryable, now: Date): Promise<(visit: WorkUnitsVisitor) => void> {
  const { rows } = await workUnitsQuery(now).execute(db);
  return (visit) => unpack(rows, visit);
}

/** Work units fetched per round trip by a run's cursor. */
const UNITS_BATCH = 50_000;

/**
 * The same work units through a cursor of the run's transaction, a batch at a time: a run of a million
 * contributions never holds the million rows the driver parsed at once, only what it keeps of them.
 */
export async function streamWorkUnits(tx: Tx, now: Date, visit: WorkUnitsVisitor): Promise<void> {
  await readThroughCursor(tx, 'settlement_units', workUnitsQuery(now), UNITS_BATCH, (rows) => unpack(rows, visit));
}
