import { authorColumns, type HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { pageOf, type CursorCodec } from '../../platform/cursor.js';
import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recomputeConsensus, type HumanActions } from '../consensus/service.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { PAGE_LIMIT_DEFAULT, type PageQuery } from '../stories/evidence-schemas.js';
import { requirePublished } from '../stories/policy.js';
import type { ReadableStory, StoriesService } from '../stories/service.js';
import { currentPacket, lockVisibleStory } from '../stories/story-lock.js';
import { newestOnReadable } from '../stories/readable-titles.js';
import { editorialActsOn, flagsAfter, flagsByActor, flagsOfActorOnStory, insertFlag } from './repository.js';
import type { Flag, FlagBody, FlagsResponse } from './schemas.js';

/** A challenge is a HIGH flag that names a claim. */
const isChallenge = (severity: string, claimId: string | null | undefined) => severity === 'HIGH' && Boolean(claimId);

const presentFlag = (f: {
  id: string;
  actor_id: string;
  verified: boolean;
  severity: Flag['severity'];
  claim_id: string | null;
  reason: string;
  created_at: Date;
}): Flag => ({
  id: f.id,
  actorId: f.actor_id,
  verified: f.verified,
  severity: f.severity,
  claimId: f.claim_id,
  reason: f.reason,
  challenge: isChallenge(f.severity, f.claim_id),
  createdAt: f.created_at.toISOString(),
});

/** A reader's own flag as their pages show it. */
export interface OwnFlag {
  id: string;
  storyId: string;
  severity: Flag['severity'];
  claimId: string | null;
  reason: string;
  challenge: boolean;
  createdAt: string;
}

/**
 * What became of a flag, as far as the newsroom records it. Flags get no verdict of their own: what is recorded is
 * what a content editor did to the story after the flag was filed, a retraction (with its reason) or the latest
 * correction (with its note). `OPEN` when neither happened since.
 */
export type FlagOutcome = { state: 'OPEN' } | { state: 'CORRECTED' | 'RETRACTED'; at: string; note: string };

const presentOwn = (f: {
  id: string;
  story_id: string;
  severity: Flag['severity'];
  claim_id: string | null;
  reason: string;
  created_at: Date;
}): OwnFlag => ({
  id: f.id,
  storyId: f.story_id,
  severity: f.severity,
  claimId: f.claim_id,
  reason: f.reason,
  challenge: isChallenge(f.severity, f.claim_id),
  createdAt: f.created_at.toISOString(),
});

/** Reader flags and challenges: written by signed readers, listed publicly. */
export function createFlagsService(deps: {
  db: Db<NewsroomTables>;
  transactor: Transactor<NewsroomTables>;
  clock: Clock;
  cursors: CursorCodec;
  stories: Pick<StoriesService, 'readable'>;
  humanActions: HumanActions;
}) {
  const { db, transactor, clock, cursors, stories, humanActions } = deps;

  /** Flags and challenges of a story the caller already read through stories.readable (the site's story page reuses its one access check). */
  async function listForReadableStory(story: ReadableStory, page: PageQuery): Promise<FlagsResponse> {
    const kind = `flags:${story.id}`;
    const limit = page.limit ?? PAGE_LIMIT_DEFAULT;
    const rows = await flagsAfter(db, story.id, cursors.afterSeq(kind, page.cursor), limit + 1);
    const { items, nextCursor } = pageOf(rows, limit, (last) => cursors.encode(kind, [last.seq]));
    return {
      storyId: story.id,
      items: items.map(presentFlag),
      ...(nextCursor ? { nextCursor } : {}),
    };
  }

  return {
    /**
     * A flag. A HIGH flag must name a claim of the current packet and is accepted only with a verified
     * human action `flag_high_severity:<claimId>` proven by this reader (consumed here, once): it puts the
     * story UNDER_REVIEW and shows a CHALLENGE on the ledger.
     */
    async create(actor: HumanActor, storyId: string, body: FlagBody, params: Parameters) {
      return withTransaction(transactor, async (tx, events) => {
        const story = requirePublished(await lockVisibleStory(tx, events, storyId));
        if (body.claimId && !(await currentPacket(tx, story)).claims.some((c) => c.id === body.claimId)) {
          throw validationFailed([{ path: '/claimId', message: 'no such claim in the current packet' }]);
        }
        const now = new Date(clock.now());
        let verifiedActionId: string | null = null;
        if (body.severity === 'HIGH') {
          if (!body.claimId) throw validationFailed([{ path: '/claimId', message: 'a HIGH flag must name the claim it challenges' }]);
          const action = `flag_high_severity:${body.claimId}`;
          verifiedActionId = actor.linkedHumanId
            ? await humanActions.consume(tx, action, `flag:${story.id}`, now, actor.linkedHumanId)
            : null;
          if (!verifiedActionId) {
            throw appError('HUMAN_VERIFICATION_REQUIRED', {
              message: 'A HIGH flag needs a verified human action for this claim',
              nextAction: `POST /v1/worldid/verify with action ${action}, then flag again with your linkedHumanId`,
            });
          }
        }
        const row = await insertFlag(tx, {
          id: newId('fl'),
          story_id: story.id,
          ...authorColumns(actor),
          severity: body.severity,
          claim_id: body.claimId ?? null,
          reason: body.reason,
          verified_action_id: verifiedActionId,
          created_at: now,
        });
        if (!row) throw appError('FLAG_ALREADY_RECORDED');
        const challenge = isChallenge(row.severity, row.claim_id);
        const snapshot = await recomputeConsensus(
          humanActions,
          tx,
          events,
          story,
          params,
          now,
          challenge && story.review_status !== 'RETRACTED' ? 'UNDER_REVIEW' : undefined,
        );
        return { storyId: row.story_id, ...presentFlag(row), verifiedActionId, reviewStatus: snapshot.reviewStatus };
      });
    },

    /** Flags and challenges oldest first, keyset on their sequence. */
    async list(id: string, page: PageQuery): Promise<FlagsResponse> {
      return listForReadableStory(await stories.readable(id), page);
    },

    listForReadableStory,

    /** The flags `actor` filed on `storyId`, oldest first: the story page says so instead of offering the same flag again. */
    async mine(actor: HumanActor, storyId: string): Promise<OwnFlag[]> {
      return (await flagsOfActorOnStory(db, storyId, actor.actorId)).map(presentOwn);
    },

    /**
     * The actor's newest flags (up to `limit`) on stories the public can read, each with its story's title and
     * what became of it (FlagOutcome).
     */
    async byActor(actorId: string, limit: number) {
      const kept = await newestOnReadable(stories, (n) => flagsByActor(db, actorId, n), limit);
      const acts = await editorialActsOn(db, [...new Set(kept.map(({ row }) => row.story_id))]);
      return kept.map(({ row: r, story }) => {
        const since = acts.filter((a) => a.story_id === r.story_id && a.created_at >= r.created_at);
        const act = since.find((a) => a.kind === 'RETRACTION') ?? since.at(-1);
        const outcome: FlagOutcome = act
          ? { state: act.kind === 'RETRACTION' ? 'RETRACTED' : 'CORRECTED', at: act.created_at.toISOString(), note: act.note }
          : { state: 'OPEN' };
        return { ...presentOwn(r), story, outcome };
      });
    },
  };
}
