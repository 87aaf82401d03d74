import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { normalizePacket, packetHash, claimsText, type Packet } from '../../src/newsroom/common/packet.js';
import { manualClock } from '../../src/platform/clock.js';
import type { Db } from '../../src/platform/db/database.js';
import type { LedgerBucket, LedgerType, ModerationStatus, PublicationStage, ReviewStatus, StoryState } from '../../src/newsroom/rows.js';
import { createTestDatabase, testEnv, type Env, type TestDatabase } from './app.js';
import { deleteRedisPrefix } from './redis.js';
import type { DB } from '../../src/tables.js';

/**
 * Seeds newsroom rows directly with Kysely, so the read tests do not depend on the write-side services.
 * Every builder takes overrides; defaults describe a published, visible, provisional story.
 */

export const HOUR_MS = 3_600_000;
/** The fixed "now" of read tests (a manual clock starts here). */
export const NOW = Date.parse('2026-03-10T12:00:00.000Z');

/** A time for a column: a Date, or text with microseconds (`2026-03-01T10:00:00.123456Z`), cast in SQL. */
export type Time = Date | string;
const at = (value: Time): RawBuilder<Date> => sql<Date>`${typeof value === 'string' ? value : value.toISOString()}::timestamptz`;
const atOrNull = (value: Time | null): RawBuilder<Date> | null => (value === null ? null : at(value));

export interface StoryInput {
  id: string;
  authorBotId: string;
  room: string;
  lang: string;
  title: string;
  summary: string;
  body: string;
  claims: { id?: string; text: string }[];
  sources: { url: string; title?: string; publisher?: string }[];
  stage: PublicationStage;
  review: ReviewStatus;
  moderation: ModerationStatus;
  trendingScore: number;
  createdAt: Time;
  publishedAt: Time | null;
  graduatedAt: Time | null;
  rewardWindowEndsAt: Time | null;
  counts: Partial<{ attestations: number; objections: number; comments: number; flags: number; rewardVotes: number }>;
}

export interface SeededStory {
  id: string;
  packetHash: string;
  packet: Packet;
  authorBotId: string;
}

const tag = () => randomBytes(5).toString('hex');

export function newsroomFactory(db: Db<DB>, now = NOW) {
  return {
    now: new Date(now),

    async bot(overrides: { botId?: string; name?: string } = {}): Promise<string> {
      const botId = overrides.botId ?? `bot_${randomBytes(16).toString('hex')}`;
      await db
        .insertInto('bots')
        .values({
          bot_id: botId,
          name: overrides.name ?? `Bot ${botId.slice(4, 10)}`,
          description: null,
          operator_contact: null,
          source: 'SELF_SERVE',
          linked_human_id: null,
          wallet_address: null,
          wallet_chain_id: null,
          permissions: [],
        })
        .execute();
      return botId;
    },

    async story(overrides: Partial<StoryInput> = {}): Promise<SeededStory> {
      const t = tag();
      const stage = overrides.stage ?? 'PROVISIONAL';
      const publishedAt =
        overrides.publishedAt !== undefined ? overrides.publishedAt : stage === 'CANDIDATE' ? null : new Date(now - HOUR_MS);
      const published = publishedAt === null ? null : typeof publishedAt === 'string' ? new Date(publishedAt) : publishedAt;
      const packet = normalizePacket({
        room: overrides.room ?? 'world',
        lang: overrides.lang ?? 'en',
        title: overrides.title ?? `Harbour authority approves ferry schedule ${t}`,
        summary: overrides.summary ?? 'The port authority voted to add two evening crossings.',
        body: overrides.body ?? 'The authority approved the timetable after a consultation.',
        claims: overrides.claims ?? [{ text: 'Two crossings were added.' }, { text: 'The change starts next month.' }],
        sources: overrides.sources ?? [{ url: `https://example.org/minutes-${t}`, title: 'Minutes', publisher: 'Harbour Authority' }],
      });
      const hash = packetHash(packet);
      const id = overrides.id ?? `st_${t}`;
      const authorBotId = overrides.authorBotId ?? `bot_${'a'.repeat(32)}`;
      const counts = overrides.counts ?? {};
      const createdAt = overrides.createdAt ?? new Date((published?.getTime() ?? now) - HOUR_MS);
      await db
        .insertInto('stories')
        .values({
          id,
          author_bot_id: authorBotId,
          room: packet.room,
          lang: packet.lang,
          title: packet.title,
          summary: packet.summary,
          body: packet.body,
          claims_text: claimsText(packet),
          current_version: 1,
          current_packet_hash: hash,
          publication_stage: stage,
          review_status: overrides.review ?? 'EMERGING',
          moderation_status: overrides.moderation ?? (stage === 'CANDIDATE' ? 'PENDING_SCAN' : 'ALLOWED'),
          attestation_count: counts.attestations ?? 0,
          objection_count: counts.objections ?? 0,
          comment_count: counts.comments ?? 0,
          flag_count: counts.flags ?? 0,
          reward_vote_count: counts.rewardVotes ?? 0,
          trending_score: overrides.trendingScore ?? 0,
          created_at: at(createdAt),
          updated_at: at(createdAt),
          published_at: atOrNull(publishedAt),
          graduated_at: atOrNull(
            overrides.graduatedAt !== undefined ? overrides.graduatedAt : stage === 'GRADUATED' ? new Date(now - HOUR_MS / 2) : null,
          ),
          reward_window_ends_at: atOrNull(
            overrides.rewardWindowEndsAt !== undefined
              ? overrides.rewardWindowEndsAt
              : published
                ? new Date(published.getTime() + 72 * HOUR_MS)
                : null,
          ),
        })
        .execute();
      await db
        .insertInto('story_versions')
        .values({
          story_id: id,
          version: 1,
          packet_hash: hash,
          packet: JSON.stringify(packet),
          proposal_id: null,
          created_by: authorBotId,
          created_at: at(createdAt),
        })
        .execute();
      for (const source of packet.sources) {
        await db
          .insertInto('story_sources')
          .values({
            id: `src_${tag()}`,
            story_id: id,
            url: source.url,
            title: source.title ?? null,
            publisher: source.publisher ?? null,
            added_in_version: 1,
            created_at: at(createdAt),
          })
          .execute();
      }
      return { id, packetHash: hash, packet, authorBotId };
    },

    /** A revision: a new version with changed fields becomes current; sources of the new packet replace the old. */
    async revise(
      story: SeededStory,
      changes: Partial<Pick<Packet, 'title' | 'summary' | 'body' | 'claims' | 'sources'>>,
      options: { proposalId?: string; createdBy?: string; at?: Time } = {},
    ): Promise<SeededStory> {
      const current = await db.selectFrom('stories').select(['current_version']).where('id', '=', story.id).executeTakeFirstOrThrow();
      const packet = normalizePacket({ ...story.packet, ...changes });
      const hash = packetHash(packet);
      const version = current.current_version + 1;
      const when = options.at ?? new Date(now - HOUR_MS / 4);
      await db
        .insertInto('story_versions')
        .values({
          story_id: story.id,
          version,
          packet_hash: hash,
          packet: JSON.stringify(packet),
          proposal_id: options.proposalId ?? null,
          created_by: options.createdBy ?? story.authorBotId,
          created_at: at(when),
        })
        .execute();
      await db
        .updateTable('stories')
        .set({
          title: packet.title,
          summary: packet.summary,
          body: packet.body,
          claims_text: claimsText(packet),
          current_version: version,
          current_packet_hash: hash,
        })
        .where('id', '=', story.id)
        .execute();
      const urls = new Set(packet.sources.map((s) => s.url));
      await db
        .updateTable('story_sources')
        .set({ active: false })
        .where('story_id', '=', story.id)
        .where('url', 'not in', [...urls, ''])
        .execute();
      for (const source of packet.sources) {
        await db
          .insertInto('story_sources')
          .values({
            id: `src_${tag()}`,
            story_id: story.id,
            url: source.url,
            title: source.title ?? null,
            publisher: source.publisher ?? null,
            added_in_version: version,
            created_at: at(when),
          })
          .onConflict((oc) => oc.columns(['story_id', 'url']).doNothing())
          .execute();
      }
      return { ...story, packetHash: hash, packet };
    },

    async review(
      story: Pick<SeededStory, 'id' | 'packetHash'>,
      input: {
        botId?: string;
        kind?: 'ATTESTATION' | 'OBJECTION';
        packetHash?: string;
        weight?: number;
        confidence?: number | null;
        note?: string | null;
        claimIds?: string[];
        evidence?: unknown;
        createdAt?: Time;
      } = {},
    ) {
      const id = `rev_${tag()}`;
      await db
        .insertInto('agent_reviews')
        .values({
          id,
          story_id: story.id,
          packet_hash: input.packetHash ?? story.packetHash,
          bot_id: input.botId ?? `bot_${randomBytes(16).toString('hex')}`,
          verified: false,
          kind: input.kind ?? 'ATTESTATION',
          weight: input.weight ?? 1,
          confidence: input.confidence ?? null,
          note: input.note ?? null,
          claim_ids: input.claimIds ?? [],
          evidence: JSON.stringify(input.evidence ?? []),
          created_at: at(input.createdAt ?? new Date(now - HOUR_MS / 2)),
        })
        .execute();
      return id;
    },

    async comment(storyId: string, input: { actorId?: string; body?: string; parentId?: string | null; createdAt?: Time } = {}) {
      const id = `cm_${tag()}`;
      await db
        .insertInto('comments')
        .values({
          id,
          story_id: storyId,
          actor_id: input.actorId ?? `reader-${tag()}`,
          verified: false,
          linked_human_id: null,
          parent_id: input.parentId ?? null,
          body: input.body ?? 'A comment.',
          created_at: at(input.createdAt ?? new Date(now)),
        })
        .execute();
      return id;
    },

    async flag(
      storyId: string,
      input: { actorId?: string; severity?: 'LOW' | 'MEDIUM' | 'HIGH'; claimId?: string | null; reason?: string } = {},
    ) {
      const id = `fl_${tag()}`;
      await db
        .insertInto('flags')
        .values({
          id,
          story_id: storyId,
          actor_id: input.actorId ?? `reader-${tag()}`,
          verified: false,
          linked_human_id: null,
          severity: input.severity ?? 'LOW',
          claim_id: input.claimId ?? null,
          reason: input.reason ?? 'A typo.',
          verified_action_id: null,
          created_at: at(new Date(now)),
        })
        .execute();
      return id;
    },

    async ledgerEvent(
      storyId: string,
      input: {
        type?: LedgerType;
        bucket?: LedgerBucket;
        storyState?: StoryState;
        title?: string;
        editorialState?: string;
        promotionState?: string;
        createdAt?: Time;
      } = {},
    ) {
      const id = `le_${tag()}`;
      const row = await db
        .insertInto('ledger_events')
        .values({
          id,
          story_id: storyId,
          type: input.type ?? 'UPDATE',
          title: input.title ?? `Update ${id}`,
          story_state: input.storyState ?? 'PROVISIONAL',
          editorial_state: input.editorialState ?? 'PUBLISHED',
          promotion_state: input.promotionState ?? 'PROVISIONAL',
          ledger_bucket: input.bucket ?? 'provisional',
          reason: null,
          created_at: at(input.createdAt ?? new Date(now)),
        })
        .returning('seq')
        .executeTakeFirstOrThrow();
      return { id, seq: row.seq };
    },

    async proposal(
      story: Pick<SeededStory, 'id' | 'packetHash'>,
      input: {
        botId?: string;
        status?: 'OPEN' | 'ACCEPTED' | 'REJECTED' | 'STALE';
        changes?: unknown;
        rationale?: string;
        acceptVotes?: number;
        rejectVotes?: number;
        resultVersion?: number | null;
        resolvedAt?: Time | null;
        createdAt?: Time;
      } = {},
    ) {
      const id = `rp_${tag()}`;
      await db
        .insertInto('revision_proposals')
        .values({
          id,
          story_id: story.id,
          base_packet_hash: story.packetHash,
          bot_id: input.botId ?? `bot_${randomBytes(16).toString('hex')}`,
          changes: JSON.stringify(input.changes ?? { title: 'A better title' }),
          rationale: input.rationale ?? 'Clearer title',
          status: input.status ?? 'OPEN',
          accept_votes: input.acceptVotes ?? 0,
          reject_votes: input.rejectVotes ?? 0,
          result_version: input.resultVersion ?? null,
          created_at: at(input.createdAt ?? new Date(now - HOUR_MS)),
          resolved_at: atOrNull(input.resolvedAt ?? null),
        })
        .execute();
      return id;
    },

    async trace(
      story: Pick<SeededStory, 'id' | 'packetHash'>,
      input: { decision?: 'ALLOW' | 'QUARANTINE' | 'BLOCK'; scannedAt?: Time; packetHash?: string } = {},
    ) {
      await db
        .insertInto('safety_traces')
        .values({
          id: `scan_${tag()}`,
          story_id: story.id,
          packet_hash: input.packetHash ?? story.packetHash,
          decision: input.decision ?? 'ALLOW',
          categories: JSON.stringify([{ category: 'DOXXING', action: 'BLOCK', hardBlock: true }]),
          rules: JSON.stringify([{ id: 'doxxing.phone', category: 'DOXXING', action: 'BLOCK', matched: false, fields: [] }]),
          scanned_at: at(input.scannedAt ?? new Date(now - HOUR_MS)),
        })
        .execute();
    },

    async consensusSnapshot(
      story: Pick<SeededStory, 'id' | 'packetHash'>,
      snapshot: Record<string, unknown>,
      computedAt: Time = new Date(now - HOUR_MS / 3),
    ) {
      await db
        .insertInto('consensus_snapshots')
        .values({ story_id: story.id, packet_hash: story.packetHash, snapshot: JSON.stringify(snapshot), computed_at: at(computedAt) })
        .execute();
    },

    async setParameter(name: string, value: number) {
      await db
        .insertInto('governance_parameters')
        .values({ name, value: JSON.stringify(value), default_value: JSON.stringify(value), updated_by_proposal_id: null })
        .execute();
    },
  };
}

export type NewsroomFactory = ReturnType<typeof newsroomFactory>;

export interface ReadsTestApp {
  app: FastifyInstance;
  db: Db<DB>;
  database: TestDatabase;
  clock: ReturnType<typeof manualClock>;
  factory: NewsroomFactory;
  get<T = Record<string, unknown>>(url: string): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/**
 * The factory writes behind the service's back, as no production writer does; each of its writes then moves
 * the read generation on, as a write through the API does, so the public read cache stays on in these tests.
 */
function bumpingReads(factory: NewsroomFactory, app: FastifyInstance): NewsroomFactory {
  const wrapped = { ...factory } as Record<string, unknown>;
  for (const [name, value] of Object.entries(factory)) {
    if (typeof value !== 'function') continue;
    wrapped[name] = async (...args: unknown[]) => {
      const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>)(...args);
      await app.ctx.readGeneration.bump();
      return result;
    };
  }
  return wrapped as NewsroomFactory;
}

/**
 * A test app on its own fresh database with a manual clock at NOW (PGlite by default, the test PostgreSQL
 * and Redis when TEST_DATABASE_URL / TEST_REDIS_URL are set). The per-IP read limit is raised: these tests
 * read many pages; the limit itself is covered in openapi-and-limits.test.ts.
 */
export async function createReadsTestApp(env: Env = {}): Promise<ReadsTestApp> {
  const database = await createTestDatabase();
  const clock = manualClock(NOW);
  const config = loadConfig(
    testEnv({ ...(database.url ? { DATABASE_URL: database.url } : {}), RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '1000000', ...env }),
  );
  const app = await buildApp(config, { database: database.database, clock, logger: false, migrate: false });
  const db = database.database.db;
  return {
    app,
    db,
    database,
    clock,
    factory: bumpingReads(newsroomFactory(db), app),
    async get<T>(url: string) {
      const res = await app.inject({ method: 'GET', url });
      return { status: res.statusCode, body: res.json() as T };
    },
    async close() {
      await app.close();
      await database.drop();
      await deleteRedisPrefix(config.redisKeyPrefix);
    },
  };
}
