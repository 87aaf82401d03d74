import { sql, type RawBuilder } from 'kysely';
import { readThroughCursor } from '../platform/db/bulk/cursor-read.js';
import type { Queryable, Tx } from '../platform/db/database.js';
import type { NewsroomTables } from './tables.js';
import type { PayoutRole } from '../rewards/rows.js';
import type { BotOwners, EligibleStory, WorkUnitsVisitor } from '../rewards/settlements/contributions.js';

/**
 * SQL that gathers what a settlement divides (the rewards' `SettlementContributions` port): the stories whose reward
 * window has closed and that no settlement has covered, their reward-vote weight, and the units of work of each role
 * (docs/rewards.md "Who is paid for what"). Every query restates the same `eligible` set, so all read one consistent
 * list. A link: `eligible` leaves out the stories the rewards' settled_stories holds, in the same statement.
 */

/**
 * A row of the work-units query: either a story's bot units packed in one text (`bots`: `units role botId` per
 * contribution, joined by commas; none of the three holds a space or a comma, bot ids being `bot_` and 32 hex
 * digits), or one flagger's units (`flag`: `units beneficiary`, the beneficiary the rest of the text, whatever it
 * holds) with the flagger's linked human as `owner`. The driver makes an object and a string per field of each
 * row: a story's twenty contributions in one row cost it one, not twenty. A bot's owner comes from the bots' owners
 * read once (BotOwners), not from a join of a million rows in the query.
 */
interface PackedUnits {
  story_id: string;
  bots: string | null;
  flag: string | null;
  owner: string | null;
}

const ROLES_BY_INITIAL: Readonly<Record<string, PayoutRole>> = { W: 'WRITER', F: 'FACT_CHECK', R: 'RISK', S: 'SOURCE_DIVERSITY' };

/** The role written in `text` from `start` to `end`, as its constant string, or undefined. */
function roleAt(text: string, start: number, end: number): PayoutRole | undefined {
  const role = ROLES_BY_INITIAL[text[start]!];
  return role !== undefined && role.length === end - start && text.startsWith(role, start) ? role : undefined;
}

const notPacked = (text: string) => new Error(`settlement work units: not a packed row: ${text.slice(0, 80)}`);

/**
 * Hands the fields of each packed row to `visit`, a bot's id and owner taken from `owners` (a bot missing there, which
 * its foreign keys rule out, has no owner).
 */
function unpack(rows: readonly PackedUnits[], owners: BotOwners, visit: WorkUnitsVisitor): void {
  for (const { story_id, bots, flag, owner } of rows) {
    if (bots !== null) {
      for (let start = 0; start < bots.length;) {
        let end = bots.indexOf(',', start);
        if (end < 0) end = bots.length;
        const a = bots.indexOf(' ', start);
        const b = bots.indexOf(' ', a + 1);
        const role = a > start && b > a ? roleAt(bots, a + 1, b) : undefined;
        if (role === undefined || b >= end) throw notPacked(bots.slice(start));
        const id = bots.slice(b + 1, end);
        const bot = owners.get(id);
        visit(story_id, role, 'BOT', bot?.botId ?? id, bot?.owner ?? null, bots.slice(start, a));
        start = end + 1;
      }
    }
    if (flag !== null) {
      const a = flag.indexOf(' ');
      if (a < 1) throw notPacked(flag);
      visit(story_id, 'RISK', 'HUMAN', flag.slice(a + 1), owner, flag.slice(0, a));
    }
  }
}

/** One of `of` parts of the eligible stories, by their seq (`of` 1: all of them). */
interface StoryPart {
  index: number;
  of: number;
}

const ALL_STORIES: StoryPart = { index: 0, of: 1 };

function eligible(now: Date, part: StoryPart = ALL_STORIES): RawBuilder<unknown> {
  const inPart = part.of > 1 ? sql`and s.seq % ${sql.lit(part.of)} = ${sql.lit(part.index)}` : sql``;
  return sql`eligible as (
    select s.id, s.review_status, s.graduated_at, s.current_packet_hash, s.reward_window_ends_at
    from stories s
    where s.published_at is not null and s.reward_window_ends_at is not null and s.reward_window_ends_at <= ${now}
      and not exists (select 1 from settled_stories x where x.story_id = s.id) ${inPart}
  )`;
}

/**
 * Into how many statements a preview splits its work units, run at once on connections of the pool: one for
 * each of the database's two cores on the machine measured.
 */
const UNIT_PARTS = 2;

export async function eligibleStories(db: Queryable<NewsroomTables>, now: Date): Promise<EligibleStory[]> {
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
 * source host a bot's packet introduced first (the host stored with each source, story_sources.host: the one
 * identity of a source host across the service). A retracted story pays RISK only.
 */
function workUnitsQuery(now: Date, part: StoryPart): RawBuilder<PackedUnits> {
  // per eligible story, its bot units: each branch reads the story's rows through an index, so no step of the
  // query holds or sorts the million rows of all stories
  return sql<PackedUnits>`
    with ${eligible(now, part)}
    select e.id as story_id, (
      select string_agg(u.units::text || ' ' || u.role || ' ' || u.bot_id, ',')
      from (
        select 'WRITER' as role, v.created_by as bot_id, count(*)::bigint as units
        from story_versions v
        where v.story_id = e.id and e.review_status <> 'RETRACTED'
        group by v.created_by
        union all
        -- one review per bot and packet (unique), so one row per attester: nothing to add up
        select 'FACT_CHECK', r.bot_id, r.weight::bigint
        from agent_reviews r
        where r.story_id = e.id and r.kind = 'ATTESTATION' and e.graduated_at is not null and e.review_status <> 'RETRACTED'
          and r.packet_hash = (select v.packet_hash from story_versions v where v.story_id = e.id
            and v.created_at <= e.graduated_at order by v.version desc limit 1)
        union all
        select 'RISK', r.bot_id, sum(r.weight)::bigint
        from agent_reviews r
        where r.story_id = e.id and r.kind = 'OBJECTION'
          and (e.review_status in ('CONTESTED', 'UNDER_REVIEW', 'RETRACTED') or r.packet_hash <> e.current_packet_hash)
        group by r.bot_id
        union all
        select 'SOURCE_DIVERSITY', h.bot_id, count(*)::bigint
        from (
          select distinct on (ss.host) v.created_by as bot_id
          from story_sources ss
          join story_versions v on v.story_id = ss.story_id and v.version = ss.added_in_version
          where ss.story_id = e.id and ss.active and ss.status not in ('UNRELIABLE', 'RETRACTED')
            and e.review_status <> 'RETRACTED' and ss.host is not null and ss.host <> ''
          order by ss.host, ss.added_in_version, ss.created_at, ss.id
        ) h
        group by h.bot_id
      ) u
      where u.units > 0
    ) as bots, null::text as flag, null::text as owner
    from eligible e
    union all
    select f.story_id, null, count(*)::text || ' ' || coalesce(f.linked_human_id, f.actor_id), max(f.linked_human_id)
    from flags f join eligible e on e.id = f.story_id
    where e.review_status in ('UNDER_REVIEW', 'RETRACTED')
    group by f.story_id, coalesce(f.linked_human_id, f.actor_id)`;
}

/**
 * The work units (a preview, outside a transaction), handed to a visitor once they are ready, with each bot's owner
 * taken from `owners`. With `inParts`, in statements that the pool's connections run at once, each over a part of
 * the stories, so each story's units come in one part in the order one statement gives them.
 */
export async function workUnits(
  db: Queryable<NewsroomTables>,
  now: Date,
  inParts: boolean,
): Promise<(owners: BotOwners, visit: WorkUnitsVisitor) => void> {
  const parts = inParts ? Array.from({ length: UNIT_PARTS }, (_, index) => ({ index, of: UNIT_PARTS })) : [ALL_STORIES];
  const results = await Promise.all(parts.map((part) => workUnitsQuery(now, part).execute(db)));
  return (owners, visit) => {
    for (const { rows } of results) unpack(rows, owners, visit);
  };
}

/** Rows fetched per round trip by a run's cursor: a story's row holds its twenty-odd contributions. */
const UNITS_BATCH = 2_500;

/**
 * The same work units through a cursor of the run's transaction, a batch at a time: a run of a million
 * contributions never holds the million rows the driver parsed at once, only what it keeps of them.
 */
export async function streamWorkUnits(tx: Tx<NewsroomTables>, now: Date, owners: BotOwners, visit: WorkUnitsVisitor): Promise<void> {
  await readThroughCursor(tx, 'settlement_units', workUnitsQuery(now, ALL_STORIES), UNITS_BATCH, (rows) => unpack(rows, owners, visit));
}
