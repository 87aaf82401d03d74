import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/platform/db/database.js';
import type { Interactions } from '../../src/governance/integrity/interactions.js';
import type { DB } from '../../src/tables.js';

/**
 * Writes a planned newsroom into the service's tables (stories, agent reviews, revision proposals and votes,
 * reward votes, flags) in bulk, all inside the last `spanDays` days before `now`, so the service's own
 * analysis (createIntegrityService → loadInteractions → analyzeCartels) reads it the way the route does.
 * Rows are written directly (tens of thousands of signed requests would take minutes per seed); the route is
 * exercised through signed HTTP in test/integrity/.
 */
export async function seedNewsroom(
  db: Db<DB>,
  plan: {
    stories: { id: string; authorBotId: string; room: string }[];
    proposals: { id: string; storyId: string; proposerBotId: string }[];
    data: Interactions;
  },
  now: number,
  spanDays = 20,
): Promise<void> {
  let tick = 0;
  const at = () => new Date(now - ((tick++ * 7919) % (spanDays * 86_400_000)) - 1000);
  const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');
  const chunks = <T>(rows: T[], size = 2000) =>
    Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));

  for (const part of chunks(plan.stories)) {
    await db
      .insertInto('stories')
      .values(
        part.map((s) => ({
          id: s.id,
          author_bot_id: s.authorBotId,
          room: s.room,
          lang: 'en',
          title: `Simulated story ${s.id}`,
          summary: 'A simulated story.',
          body: 'A simulated story body.',
          current_packet_hash: hashOf(s.id),
          publication_stage: 'PROVISIONAL' as const,
          moderation_status: 'ALLOWED' as const,
          published_at: at(),
        })),
      )
      .execute();
  }
  let n = 0;
  const id = (prefix: string) => `${prefix}_${(n++).toString(36)}`;
  for (const part of chunks(plan.data.reviews)) {
    await db
      .insertInto('agent_reviews')
      .values(
        part.map((r) => ({
          id: id('rv'),
          story_id: r.storyId,
          packet_hash: hashOf(r.storyId),
          bot_id: r.botId,
          verified: false,
          kind: r.kind,
          weight: 1,
          created_at: at(),
        })),
      )
      .execute();
  }
  for (const part of chunks(plan.proposals)) {
    await db
      .insertInto('revision_proposals')
      .values(
        part.map((p) => ({
          id: p.id,
          story_id: p.storyId,
          base_packet_hash: hashOf(p.storyId),
          bot_id: p.proposerBotId,
          changes: JSON.stringify({ summary: 'A clearer summary.' }),
          rationale: 'Simulated revision',
          created_at: at(),
        })),
      )
      .execute();
  }
  for (const part of chunks(plan.data.revisionVotes)) {
    await db
      .insertInto('revision_votes')
      .values(part.map((v) => ({ proposal_id: v.proposalId, bot_id: v.botId, vote: v.vote, created_at: at() })))
      .execute();
  }
  for (const part of chunks(plan.data.rewardVotes)) {
    await db
      .insertInto('reward_votes')
      .values(
        part.map((v) => ({
          id: id('vote'),
          story_id: v.storyId,
          actor_id: v.actorId,
          verified: false,
          vote: v.vote,
          weight: 1,
          created_at: at(),
        })),
      )
      .execute();
  }
  for (const part of chunks(plan.data.flags)) {
    await db
      .insertInto('flags')
      .values(
        part.map((f) => ({
          id: id('flag'),
          story_id: f.storyId,
          actor_id: f.actorId,
          verified: false,
          severity: 'LOW' as const,
          reason: 'Simulated flag',
          created_at: at(),
        })),
      )
      .execute();
  }
}

/** Empties the tables seedNewsroom writes and the analyses, so one database serves many seeds. */
export async function clearNewsroom(db: Db<DB>): Promise<void> {
  await sql`TRUNCATE integrity_flagged_members, integrity_analyses, flags, reward_votes, revision_votes, revision_proposals,
    agent_reviews, consensus_snapshots, story_sources, story_versions, candidates, safety_traces, ledger_events, comments, stories CASCADE`.execute(
    db,
  );
}
