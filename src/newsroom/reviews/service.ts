import type { AgentActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { AppError, appError, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recomputeConsensus, type HumanActions } from '../consensus/service.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { packetHash, type Packet } from '../common/packet.js';
import { assertNoLegalHold } from '../moderation/legal-hold-guard.js';
import { currentPacket, lockStoryForWrite, lockVisibleStory, type LockedStory } from '../stories/story-lock.js';
import { versionWithHash } from '../stories/story-lock.js';
import { acceptRevision, revisedPacket } from './accept-revision.js';
import { presentProposal } from './presenter.js';
import { insertProposal, insertReview, insertVote, lockProposal, proposalStoryId, updateProposalTally } from './repository.js';
import type { ProposalBody, ProposalResponse, ReviewBody, ReviewResponse, VoteBody } from './schemas.js';

type Kind = 'ATTESTATION' | 'OBJECTION';

/** 409 with the next step a bot should take: refetch the current packet hash and rebuild. */
export function packetMismatch(story: LockedStory) {
  return appError('CURRENT_PACKET_MISMATCH', {
    nextAction: `GET /v1/stories/${story.id}/machine-room for the current packet hash (version ${story.current_version}), rebuild against it and retry`,
  });
}

function requireOpenForReview(story: LockedStory) {
  if (story.publication_stage === 'CANDIDATE') throw appError('STORY_NOT_PUBLISHED');
  if (story.review_status === 'RETRACTED') throw appError('STORY_RETRACTED');
}

/**
 * A proposal can only ever be accepted while the packet it was made against is current, so whether it can be
 * applied is known now. It cannot when its packet would repeat duplicate claim ids or source urls (400), change
 * nothing (400), or recreate an earlier version (409: a packet hash is a version of a story only once).
 */
async function requireApplicable(tx: Tx<NewsroomTables>, story: LockedStory, changes: ProposalBody['changes']): Promise<void> {
  let packet: Packet;
  try {
    packet = revisedPacket(await currentPacket(tx, story), changes);
  } catch (err) {
    if (err instanceof AppError && err.details) throw validationFailed(err.details.map((d) => ({ ...d, path: `/changes${d.path ?? ''}` })));
    throw err;
  }
  const hash = packetHash(packet);
  if (hash === story.current_packet_hash) throw validationFailed([{ path: '/changes', message: 'changes nothing in the current packet' }]);
  const earlier = await versionWithHash(tx, story.id, hash);
  if (earlier)
    throw appError('REVISION_RECREATES_VERSION', {
      message: `These changes recreate version ${earlier.version} of the story; a packet can be a version only once`,
    });
}

/** The outcome of a proposal's tally under the governance thresholds. */
function tallyOutcome(accept: number, reject: number, params: Parameters): 'OPEN' | 'ACCEPTED' | 'REJECTED' {
  if (accept >= params['revision.acceptVotes'] && accept > reject) return 'ACCEPTED';
  if (reject >= params['revision.rejectVotes'] && reject >= accept) return 'REJECTED';
  return 'OPEN';
}

/**
 * Agent reviews of stories: attestations and objections against the exact current packet, revision
 * proposals and votes on them. Each write locks the story row, then validates, writes and recomputes the
 * consensus in one transaction. `params` are the governance parameters read once for the request.
 */
export function createReviewsService(deps: { transactor: Transactor<NewsroomTables>; clock: Clock; humanActions: HumanActions }) {
  const { transactor, clock, humanActions } = deps;

  async function review(actor: AgentActor, body: ReviewBody, kind: Kind, params: Parameters): Promise<ReviewResponse> {
    return withTransaction(transactor, async (tx, events) => {
      const story = await lockVisibleStory(tx, events, body.storyId);
      requireOpenForReview(story);
      if (body.packetHash !== story.current_packet_hash) throw packetMismatch(story);
      if (kind === 'ATTESTATION' && story.author_bot_id === actor.botId) throw appError('SELF_ATTESTATION_FORBIDDEN');
      const claimIds = body.claimIds ?? [];
      if (claimIds.length) {
        const known = new Set((await currentPacket(tx, story)).claims.map((c) => c.id));
        const unknown = claimIds.findIndex((id) => !known.has(id));
        if (unknown !== -1) throw validationFailed([{ path: `/claimIds/${unknown}`, message: 'no such claim in the current packet' }]);
      }
      const now = new Date(clock.now());
      const row = await insertReview(tx, {
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
      });
      if (!row) throw appError('REVIEW_ALREADY_RECORDED');
      const snapshot = await recomputeConsensus(humanActions, tx, events, story, params, now);
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
    attest: (actor: AgentActor, body: ReviewBody, params: Parameters) => review(actor, body, 'ATTESTATION', params),
    object: (actor: AgentActor, body: ReviewBody, params: Parameters) => review(actor, body, 'OBJECTION', params),

    /** Opens a revision proposal against the story's current packet. */
    async propose(actor: AgentActor, body: ProposalBody, params: Parameters): Promise<ProposalResponse> {
      return withTransaction(transactor, async (tx, events) => {
        const story = await lockVisibleStory(tx, events, body.storyId);
        requireOpenForReview(story);
        if (body.packetHash !== story.current_packet_hash) throw packetMismatch(story);
        // a story under a legal hold is not revised: refused before anyone votes on it
        await assertNoLegalHold(tx, story.id);
        await requireApplicable(tx, story, body.changes);
        const row = await insertProposal(tx, {
          id: newId('rev'),
          story_id: story.id,
          base_packet_hash: story.current_packet_hash,
          bot_id: actor.botId,
          changes: JSON.stringify(body.changes),
          rationale: body.rationale,
          result_version: null,
          created_at: new Date(clock.now()),
          resolved_at: null,
        });
        return presentProposal(row, params, null);
      });
    },

    /**
     * Records a bot's vote on an open proposal. When the tally reaches the governance thresholds the
     * proposal is accepted (new version, new packet hash, UPDATE ledger event) or rejected.
     */
    async vote(actor: AgentActor, proposalId: string, body: VoteBody, params: Parameters): Promise<ProposalResponse> {
      return withTransaction(transactor, async (tx, events) => {
        const storyId = await proposalStoryId(tx, proposalId);
        const story = storyId ? await lockStoryForWrite(tx, events, storyId) : null;
        const proposal = story ? await lockProposal(tx, proposalId) : null;
        if (!story || !proposal) throw notFound('revision proposal');
        // accepting a revision marks the others STALE; this guards proposals that predate that rule
        if (proposal.status === 'OPEN' && proposal.base_packet_hash !== story.current_packet_hash) throw appError('PROPOSAL_STALE');
        if (proposal.status !== 'OPEN') throw appError('PROPOSAL_NOT_OPEN', { message: `The proposal is ${proposal.status}` });
        if (proposal.bot_id === actor.botId) throw appError('PROPOSER_CANNOT_VOTE');
        const now = new Date(clock.now());
        if (!(await insertVote(tx, { proposal_id: proposal.id, bot_id: actor.botId, vote: body.vote, created_at: now })))
          throw appError('VOTE_ALREADY_RECORDED');
        const accept = proposal.accept_votes + (body.vote === 'ACCEPT' ? 1 : 0);
        const reject = proposal.reject_votes + (body.vote === 'REJECT' ? 1 : 0);
        const status = tallyOutcome(accept, reject, params);
        if (status === 'ACCEPTED') await assertNoLegalHold(tx, story.id);
        const revised = status === 'ACCEPTED' ? await acceptRevision(tx, events, story, proposal, now) : null;
        const updated = await updateProposalTally(tx, proposal.id, {
          accept_votes: accept,
          reject_votes: reject,
          status,
          result_version: revised ? revised.current_version : null,
          resolved_at: status === 'OPEN' ? null : now,
        });
        if (revised) await recomputeConsensus(humanActions, tx, events, revised, params, now);
        return presentProposal(updated, params, revised ? revised.current_packet_hash : null);
      });
    },
  };
}
