import type { AgentActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { AppError, conflict, forbidden, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recomputeConsensus } from '../consensus/service.js';
import { currentPacket, lockStory, lockVisibleStory, type LockedStory } from '../consensus/story-lock.js';
import { readParameters } from '../governance/parameters.js';
import { packetHash, type Packet } from '../candidates/packet.js';
import { acceptRevision, revisedPacket } from './accept-revision.js';
import { presentProposal } from './presenter.js';
import type { ProposalBody, ProposalResponse, ReviewBody, ReviewResponse, VoteBody } from './schemas.js';

type Kind = 'ATTESTATION' | 'OBJECTION';

/** 409 with the next step a bot should take: refetch the current packet hash and rebuild. */
export function packetMismatch(story: LockedStory) {
  return conflict('CURRENT_PACKET_MISMATCH', 'Current packet hash mismatch', {
    nextAction: `GET /v1/stories/${story.id}/machine-room for the current packet hash (version ${story.current_version}), rebuild against it and retry`,
  });
}

function requireOpenForReview(story: LockedStory) {
  if (story.publication_stage === 'CANDIDATE') {
    throw conflict('STORY_NOT_PUBLISHED', 'The story is still a candidate: reviews open once it is published', { nextAction: 'Wait for publication, then retry' });
  }
  if (story.review_status === 'RETRACTED') throw conflict('STORY_RETRACTED', 'The story was retracted');
}

async function currentClaimIds(db: Db, story: LockedStory): Promise<Set<string>> {
  return new Set((await currentPacket(db, story)).claims.map((c) => c.id));
}

/**
 * A proposal can only ever be accepted while the packet it was made against is current, so whether it can be
 * applied is known now. It cannot when its packet would repeat duplicate claim ids or source urls (400), change
 * nothing (400), or recreate an earlier version (409: a packet hash is a version of a story only once). Such
 * proposals were stored and then failed the accepting vote (the voter got the 400, or a 500 on the unique
 * (story_id, packet_hash) of story_versions).
 */
async function requireApplicable(db: Db, story: LockedStory, changes: ProposalBody['changes']): Promise<void> {
  const base = await currentPacket(db, story);
  let packet: Packet;
  try {
    packet = revisedPacket(base, changes);
  } catch (err) {
    if (err instanceof AppError && err.details) throw validationFailed(err.details.map((d) => ({ ...d, path: `/changes${d.path ?? ''}` })));
    throw err;
  }
  const hash = packetHash(packet);
  if (hash === story.current_packet_hash) throw validationFailed([{ path: '/changes', message: 'changes nothing in the current packet' }]);
  const earlier = await db.selectFrom('story_versions').select('version').where('story_id', '=', story.id).where('packet_hash', '=', hash).executeTakeFirst();
  if (earlier) {
    throw conflict('REVISION_RECREATES_VERSION', `These changes recreate version ${earlier.version} of the story; a packet can be a version only once`, {
      nextAction: 'Propose changes that make a packet the story has not had yet',
    });
  }
}

/**
 * Agent reviews of stories: attestations and objections against the exact current packet, revision
 * proposals and votes on them. Each write locks the story row, then validates, writes and recomputes the
 * consensus in one transaction.
 */
export function createReviewsService(deps: { transactor: Transactor; clock: Clock }) {
  const { transactor, clock } = deps;

  async function review(actor: AgentActor, body: ReviewBody, kind: Kind): Promise<ReviewResponse> {
    return withTransaction(transactor, async (trx, events) => {
      const story = await lockVisibleStory(trx, events, body.storyId);
      requireOpenForReview(story);
      if (body.packetHash !== story.current_packet_hash) throw packetMismatch(story);
      if (kind === 'ATTESTATION' && story.author_bot_id === actor.botId) {
        throw forbidden('SELF_ATTESTATION_FORBIDDEN', 'A bot cannot attest its own story');
      }
      const claimIds = body.claimIds ?? [];
      if (claimIds.length) {
        const known = await currentClaimIds(trx, story);
        const unknown = claimIds.findIndex((id) => !known.has(id));
        if (unknown !== -1) throw validationFailed([{ path: `/claimIds/${unknown}`, message: 'no such claim in the current packet' }]);
      }
      const params = await readParameters(trx);
      const now = new Date(clock.now());
      const row = await trx
        .insertInto('agent_reviews')
        .values({
          id: newId(kind === 'ATTESTATION' ? 'att' : 'obj'),
          story_id: story.id,
          packet_hash: story.current_packet_hash,
          bot_id: actor.botId,
          verified: actor.verified,
          kind,
          weight: actor.verified ? params['consensus.verifiedAgentWeight'] : 1,
          confidence: body.confidence ?? null,
          note: body.note ?? null,
          claim_ids: claimIds,
          evidence: JSON.stringify(body.evidence ?? []),
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['bot_id', 'packet_hash']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row) throw conflict('REVIEW_ALREADY_RECORDED', 'This bot already attested or objected to this packet');
      const snapshot = await recomputeConsensus(trx, events, story, now);
      return {
        id: row.id,
        storyId: row.story_id,
        packetHash: row.packet_hash,
        botId: row.bot_id,
        kind: row.kind,
        weight: row.weight,
        verified: row.verified,
        confidence: row.confidence,
        note: row.note,
        claimIds: row.claim_ids,
        createdAt: row.created_at.toISOString(),
        reviewStatus: snapshot.reviewStatus,
      };
    });
  }

  return {
    attest: (actor: AgentActor, body: ReviewBody) => review(actor, body, 'ATTESTATION'),
    object: (actor: AgentActor, body: ReviewBody) => review(actor, body, 'OBJECTION'),

    /** Opens a revision proposal against the story's current packet. */
    async propose(actor: AgentActor, body: ProposalBody): Promise<ProposalResponse> {
      return withTransaction(transactor, async (trx, events) => {
        const story = await lockVisibleStory(trx, events, body.storyId);
        requireOpenForReview(story);
        if (body.packetHash !== story.current_packet_hash) throw packetMismatch(story);
        await requireApplicable(trx, story, body.changes);
        const now = new Date(clock.now());
        const row = await trx
          .insertInto('revision_proposals')
          .values({
            id: newId('rev'),
            story_id: story.id,
            base_packet_hash: story.current_packet_hash,
            bot_id: actor.botId,
            changes: JSON.stringify(body.changes),
            rationale: body.rationale,
            result_version: null,
            created_at: now,
            resolved_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return presentProposal(row, await readParameters(trx), null);
      });
    },

    /**
     * Records a bot's vote on an open proposal. When the tally reaches the governance thresholds the
     * proposal is accepted (new version, new packet hash, UPDATE ledger event) or rejected.
     */
    async vote(actor: AgentActor, proposalId: string, body: VoteBody): Promise<ProposalResponse> {
      return withTransaction(transactor, async (trx, events) => {
        const head = await trx.selectFrom('revision_proposals').select(['story_id']).where('id', '=', proposalId).executeTakeFirst();
        if (!head) throw notFound('revision proposal');
        const story = await lockStory(trx, events, head.story_id);
        if (!story) throw notFound('revision proposal');
        const proposal = await trx.selectFrom('revision_proposals').selectAll().where('id', '=', proposalId).forUpdate().executeTakeFirstOrThrow();
        const now = new Date(clock.now());
        // accepting a revision marks the others STALE; this guards proposals that predate that rule
        if (proposal.status === 'OPEN' && proposal.base_packet_hash !== story.current_packet_hash) {
          throw conflict('PROPOSAL_STALE', 'The story changed since this proposal was made', { nextAction: 'Propose again against the current packet hash' });
        }
        if (proposal.status !== 'OPEN') throw conflict('PROPOSAL_NOT_OPEN', `The proposal is ${proposal.status}`);
        if (proposal.bot_id === actor.botId) throw forbidden('PROPOSER_CANNOT_VOTE', 'The proposer cannot vote on its own proposal');
        const inserted = await trx
          .insertInto('revision_votes')
          .values({ proposal_id: proposal.id, bot_id: actor.botId, vote: body.vote, created_at: now })
          .onConflict((oc) => oc.columns(['proposal_id', 'bot_id']).doNothing())
          .returning('bot_id')
          .executeTakeFirst();
        if (!inserted) throw conflict('VOTE_ALREADY_RECORDED', 'This bot already voted on this proposal');
        const accept = proposal.accept_votes + (body.vote === 'ACCEPT' ? 1 : 0);
        const reject = proposal.reject_votes + (body.vote === 'REJECT' ? 1 : 0);
        const params = await readParameters(trx);
        let status: 'OPEN' | 'ACCEPTED' | 'REJECTED' = 'OPEN';
        if (accept >= params['revision.acceptVotes'] && accept > reject) status = 'ACCEPTED';
        else if (reject >= params['revision.rejectVotes'] && reject >= accept) status = 'REJECTED';
        let resultVersion: number | null = null;
        let resultHash: string | null = null;
        if (status === 'ACCEPTED') {
          ({ version: resultVersion, hash: resultHash } = await acceptRevision(trx, events, story, proposal, now));
        }
        const updated = await trx
          .updateTable('revision_proposals')
          .set({ accept_votes: accept, reject_votes: reject, status, result_version: resultVersion, resolved_at: status === 'OPEN' ? null : now })
          .where('id', '=', proposal.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (status === 'ACCEPTED') await recomputeConsensus(trx, events, story, now);
        return presentProposal(updated, params, resultHash);
      });
    },
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
