import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { statementBatcher } from '../../platform/db/bulk/statement-batcher.js';
import type { Clock } from '../../platform/clock.js';
import { notFound } from '../../platform/errors.js';
import type { Lang } from '../../platform/i18n/index.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { neutralConsensus, storedConsensus } from './consensus-view.js';
import type { ConsensusResponse, MachineRoomResponse, SourcesResponse, VersionsResponse } from './evidence-schemas.js';
import { canReadStory } from './policy.js';
import { iso, presentStory, type StoryRow } from './presenter.js';
import * as repository from './repository.js';
import type { StoryResponse } from './schemas.js';

/** Active sources in the order the current packet cites their URLs (rows the packet does not name go last). */
function inCitationOrder<S extends { url: string }>(sources: S[], citedUrls: readonly string[] | null): S[] {
  const position = new Map((citedUrls ?? []).map((url, i) => [url, i]));
  const at = (s: S) => position.get(s.url) ?? Number.MAX_SAFE_INTEGER;
  return [...sources].sort((a, b) => at(a) - at(b));
}

export type ReadableStory = StoryRow;

/** Corrections and retractions are a content admin's (the corrections module's routes allow no one else). */
const CORRECTOR_ROLE = 'CONTENT_ADMIN' as const;

type ReviewRow = Awaited<ReturnType<typeof repository.reviewsOf>>[number];

/** A bot's review as the machine room and the story page give it. */
function presentReview(r: ReviewRow): MachineRoomResponse['attestations'][number] {
  return {
    id: r.id,
    botId: r.bot_id,
    verified: r.verified,
    kind: r.kind,
    weight: r.weight,
    confidence: r.confidence,
    note: r.note,
    claimIds: r.claim_ids,
    evidence: r.evidence,
    createdAt: r.created_at.toISOString(),
  };
}

/**
 * The public story reads. Every method starts with the access check `readable(id)`: an unknown story, or
 * one hidden by moderation, is 404 NOT_FOUND.
 */
export function createStoriesService(deps: { db: Db<NewsroomTables>; clock: Clock; parameters: () => Promise<Parameters> }) {
  const { db, clock, parameters } = deps;
  const now = () => new Date(clock.now());

  /** The story when the public may read it; an unknown or hidden one is 404 NOT_FOUND. */
  function publicOnly<S extends StoryRow>(story: S | null): S {
    if (!story || !canReadStory(story)) throw notFound('story');
    return story;
  }

  async function readable(id: string): Promise<ReadableStory> {
    return publicOnly(await repository.findStory(db, id));
  }

  /** readable(), with the packet of the story's current version (null when the version row is missing). */
  async function readableWithPacket(id: string): Promise<ReadableStory & { packet: unknown }> {
    return publicOnly(await repository.findStoryWithPacket(db, id));
  }

  async function versionsOf(story: ReadableStory): Promise<VersionsResponse> {
    const [rows, notices] = await Promise.all([repository.versions(db, story.id), repository.notices(db, story.id)]);
    return {
      storyId: story.id,
      currentVersion: story.current_version,
      currentPacketHash: story.current_packet_hash,
      versions: rows.map((v) => ({
        version: v.version,
        packetHash: v.packet_hash,
        createdAt: v.created_at.toISOString(),
        createdBy: v.created_by,
        // a correction writes its version and its notice together: a version with a CORRECTION notice is the admin's
        createdByKind: notices.some((n) => n.version === v.version && n.kind === 'CORRECTION') ? CORRECTOR_ROLE : ('BOT' as const),
        proposalId: v.proposal_id,
        current: v.version === story.current_version,
        notices: notices
          .filter((n) => n.version === v.version)
          .map((n) => ({ kind: n.kind, note: n.note, createdAt: n.created_at.toISOString(), createdByRole: CORRECTOR_ROLE })),
        packet: v.packet as VersionsResponse['versions'][number]['packet'],
      })),
    };
  }

  /**
   * A story with its claims, cited URLs and active sources. The reads that arrive together (a refill of the read
   * cache: every story body stored in one burst expires in one stretch) share one statement: up to 4 in flight,
   * up to 32 stories each; a read that finds fewer than 4 in flight leaves on the next turn of the event loop.
   */
  const storyWithSources = statementBatcher<string, repository.StoryWithSources | null>({
    maxBatch: 32,
    maxInFlight: 4,
    key: (id) => id,
    run: async (ids) => {
      const rows = new Map((await repository.findStoriesWithSources(db, ids)).map((row) => [row.id, row]));
      return ids.map((id) => rows.get(id) ?? null);
    },
  });

  async function detailWithRow(id: string, lang: Lang): Promise<{ detail: StoryResponse; row: ReadableStory }> {
    const story = publicOnly(await storyWithSources(id));
    const sources = inCitationOrder(story.sources, story.citedUrls);
    const claims = (story.claims ?? []).map((c) => ({ id: c.id, text: c.text }));
    const latest = story.latestCorrection;
    const correction = latest
      ? {
          kind: latest.kind,
          version: latest.version,
          note: latest.note,
          createdAt: new Date(latest.created_at).toISOString(),
          createdByRole: CORRECTOR_ROLE,
        }
      : undefined;
    return { detail: presentStory({ row: story, claims, sources, correction }, lang, now()), row: story };
  }

  async function consensusOf(story: StoryRow): Promise<ConsensusResponse> {
    const row = await repository.consensus(db, story.id);
    return row ? storedConsensus(story, row) : neutralConsensus(story, await parameters(), now());
  }

  return {
    /** Whether the newsroom holds any story at all, candidates included (the demo seeds an empty one only). */
    anyStory: () => repository.anyStory(db),
    readable,
    readableWithPacket,

    /** Story detail (also served as /v1/article/:id and /v1/cluster/:id). */
    async detail(id: string, lang: Lang): Promise<StoryResponse> {
      return (await detailWithRow(id, lang)).detail;
    },

    /** detail(), with the row of its access check (the reader site's story page reads the rest with it). */
    detailWithRow,

    /** Every packet of the story, oldest first, each with its hash. */
    async versions(id: string): Promise<VersionsResponse> {
      return versionsOf(await readable(id));
    },

    /** versions() of a story whose access check the caller made (the reader site's story page). */
    versionsForReadableStory: versionsOf,

    /** Every source the story ever cited, with its review status and whether the current packet cites it. */
    async sources(id: string): Promise<SourcesResponse> {
      const story = await readable(id);
      const rows = await repository.allSources(db, story.id);
      return {
        storyId: story.id,
        sources: rows.map((s) => ({
          id: s.id,
          url: s.url,
          title: s.title,
          publisher: s.publisher,
          status: s.status,
          sourceStatus: s.sourceStatus,
          active: s.active,
          addedInVersion: s.added_in_version,
          createdAt: s.created_at.toISOString(),
        })),
      };
    },

    async consensus(id: string): Promise<ConsensusResponse> {
      return consensusOf(await readable(id));
    },

    /** consensus() of a story whose access check the caller made (the reader site's story page). */
    consensusForReadableStory: consensusOf,

    /** Of these stories, the ids of those that carry the collusion mark (their consensus discounted a cluster). */
    async collusionMarked(ids: readonly string[]): Promise<ReadonlySet<string>> {
      return new Set(await repository.collusionMarked(db, ids));
    },

    /**
     * The attestations and objections on the current packet of a story whose access check the caller made, oldest
     * first (the reader site's story page gives the objecting bots' reasons).
     */
    async reviewsForReadableStory(story: StoryRow): Promise<Pick<MachineRoomResponse, 'attestations' | 'objections'>> {
      const reviews = (await repository.reviewsOf(db, story.id, story.current_packet_hash)).map(presentReview);
      return { attestations: reviews.filter((r) => r.kind === 'ATTESTATION'), objections: reviews.filter((r) => r.kind === 'OBJECTION') };
    },

    /** Everything agents need to review the current packet: the packet, reviews, proposals, safety trace. */
    async machineRoom(id: string): Promise<MachineRoomResponse> {
      const story = await readableWithPacket(id);
      const hash = story.current_packet_hash;
      const [reviews, older, proposals, trace, consensus, params] = await Promise.all([
        repository.reviewsOf(db, story.id, hash),
        repository.reviewCountsExcept(db, story.id, hash),
        repository.proposals(db, story.id),
        repository.latestTrace(db, story.id, hash),
        consensusOf(story),
        parameters(),
      ]);
      const presented = reviews.map(presentReview);
      return {
        storyId: story.id,
        version: story.current_version,
        packetHash: hash,
        packet: story.packet as MachineRoomResponse['packet'],
        attestations: presented.filter((r) => r.kind === 'ATTESTATION'),
        objections: presented.filter((r) => r.kind === 'OBJECTION'),
        olderPacketReviews: older,
        revisionProposals: proposals.map((p) => ({
          id: p.id,
          botId: p.bot_id,
          status: p.status,
          basePacketHash: p.base_packet_hash,
          changes: p.changes,
          rationale: p.rationale,
          votes: { accept: p.accept_votes, reject: p.reject_votes },
          resultVersion: p.result_version,
          createdAt: p.created_at.toISOString(),
          resolvedAt: iso(p.resolved_at),
        })),
        revisionThresholds: { acceptVotes: params['revision.acceptVotes'], rejectVotes: params['revision.rejectVotes'] },
        safetyTrace: trace
          ? {
              packetHash: trace.packet_hash,
              decision: trace.decision,
              categories: trace.categories as unknown[],
              rules: trace.rules as unknown[],
              scannedAt: trace.scanned_at.toISOString(),
            }
          : null,
        consensus,
      };
    },
  };
}

export type StoriesService = ReturnType<typeof createStoriesService>;
