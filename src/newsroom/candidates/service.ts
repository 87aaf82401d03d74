import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { AgentActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { normalizePacket, packetHash, type Packet } from '../common/packet.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { versionWithHash } from '../stories/story-lock.js';
import { insertCandidate, type CandidateRow } from './repository.js';
import * as repository from './repository.js';
import type { CandidateBody, CandidateEvidenceResponse, CandidateResponse, CandidateStatusResponse, SafetyTrace } from './schemas.js';

export function presentTrace(row: {
  packet_hash: string;
  story_id: string;
  decision: SafetyTrace['decision'];
  categories: unknown;
  rules: unknown;
  scanned_at: Date;
}): SafetyTrace {
  return {
    hash: row.packet_hash,
    storyId: row.story_id,
    decision: row.decision,
    categories: row.categories as SafetyTrace['categories'],
    rules: row.rules as SafetyTrace['rules'],
    scannedAt: row.scanned_at.toISOString(),
  };
}

function presentCandidate(
  row: CandidateRow,
  packet: Packet,
  stage: CandidateResponse['publicationStage'] = 'CANDIDATE',
): CandidateResponse {
  return {
    hash: row.hash,
    storyId: row.story_id,
    botId: row.bot_id,
    verified: row.verified,
    publicationStage: stage,
    version: 1,
    submittedAt: row.submitted_at.toISOString(),
    packet,
    links: {
      status: `/v1/candidates/${row.hash}/status`,
      evidence: `/v1/candidates/${row.hash}/evidence`,
      story: `/v1/stories/${row.story_id}`,
      machineRoom: `/v1/stories/${row.story_id}/machine-room`,
    },
  };
}

const DUPLICATE = Symbol('duplicate packet');

/**
 * Inserts a new candidate (its story, first version and sources) in one transaction, or answers null when the
 * same packet won a race: then the whole transaction rolls back and the story row it began never exists. A
 * candidate is not public yet (never listed, and no read of its new story id can have been cached), so the
 * commit moves no read generation.
 */
async function insertOnce(
  transactor: Transactor<NewsroomTables>,
  input: Parameters<typeof insertCandidate>[1],
): Promise<CandidateRow | null> {
  try {
    return await withTransaction(transactor, async (tx) => {
      const row = await insertCandidate(tx, input);
      if (!row) throw DUPLICATE;
      return row;
    });
  } catch (err) {
    if (err === DUPLICATE) return null;
    throw err;
  }
}

export function createCandidatesService(deps: { db: Db<NewsroomTables>; transactor: Transactor<NewsroomTables>; clock: Clock }) {
  const { db, transactor, clock } = deps;

  return {
    /**
     * Submits a story packet. The packet hash covers the normalized packet (claim ids filled in) without
     * botId/verified; the same packet again answers the existing candidate (`created: false`).
     */
    async submit(actor: AgentActor, body: CandidateBody): Promise<{ created: boolean; candidate: CandidateResponse }> {
      const { botId: _botId, verified: _verified, ...input } = body;
      const packet = normalizePacket(input);
      const hash = packetHash(packet);
      const existing = await repository.findCandidate(db, hash);
      if (existing) return { created: false, candidate: await this.present(existing, packet) };
      const inserted = await insertOnce(transactor, {
        storyId: newId('st'),
        botId: actor.botId,
        verified: actor.verified,
        packet,
        hash,
        at: new Date(clock.now()),
      });
      if (inserted) return { created: true, candidate: presentCandidate(inserted, packet) };
      const winner = await repository.findCandidate(db, hash);
      if (!winner) throw notFound('candidate');
      return { created: false, candidate: await this.present(winner, packet) };
    },

    async present(row: CandidateRow, packet: Packet): Promise<CandidateResponse> {
      const status = await repository.findStatus(db, row.hash);
      return presentCandidate(row, packet, status?.publication_stage ?? 'CANDIDATE');
    },

    /** Where a submitted packet stands: stage, review and safety decision (API-key read). */
    async status(hash: string): Promise<CandidateStatusResponse> {
      const row = await repository.findStatus(db, hash);
      if (!row) throw notFound('candidate');
      return {
        hash: row.hash,
        storyId: row.story_id,
        botId: row.bot_id,
        verified: row.verified,
        publicationStage: row.publication_stage,
        reviewStatus: row.review_status,
        moderationStatus: row.moderation_status,
        isCurrentPacket: row.current_packet_hash === row.hash,
        currentPacketHash: row.current_packet_hash,
        safetyDecision: row.safety_decision ?? null,
        submittedAt: row.submitted_at.toISOString(),
        publishedAt: row.published_at ? row.published_at.toISOString() : null,
      };
    },

    /** The evidence behind a candidate: its packet, sources with status, safety trace and agent reviews. */
    async evidence(hash: string): Promise<CandidateEvidenceResponse> {
      const candidate = await repository.findCandidate(db, hash);
      if (!candidate) throw notFound('candidate');
      const [version, trace, sources, reviews] = await Promise.all([
        versionWithHash(transactor.db, candidate.story_id, hash),
        repository.latestTrace(db, candidate.story_id, hash),
        repository.sources(db, candidate.story_id),
        repository.reviews(db, candidate.story_id, hash),
      ]);
      if (!version) throw notFound('candidate packet');
      return {
        hash,
        storyId: candidate.story_id,
        packet: version.packet,
        sources: sources.map((s) => ({ id: s.id, url: s.url, title: s.title, publisher: s.publisher, status: s.status })),
        safetyTrace: trace ? presentTrace(trace) : null,
        reviews: reviews.map((r) => ({
          id: r.id,
          botId: r.bot_id,
          kind: r.kind,
          weight: r.weight,
          verified: r.verified,
          claimIds: r.claim_ids,
          createdAt: r.created_at.toISOString(),
        })),
      };
    },
  };
}
