import { appendAudit } from '../../platform/audit/audit-log.js';
import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { pageOf, type CursorCodec } from '../../platform/cursor.js';
import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { iso } from '../stories/presenter.js';
import { lockStoryForWrite } from '../stories/story-lock.js';
import { requireVerifiedModerator } from './policy.js';
import { activeHold, insertHold, listHolds, lockHold, releaseHold, storyOfHold, type LegalHoldRow } from './repository.js';
import type { LegalHold, LegalHoldBody, LegalHoldsQuery } from './schemas.js';

function present(row: LegalHoldRow): LegalHold {
  return {
    id: row.id,
    storyId: row.story_id,
    status: row.status,
    reason: row.reason,
    caseReference: row.case_reference,
    placedBy: row.placed_by,
    placedAt: row.placed_at.toISOString(),
    releasedBy: row.released_by,
    releasedAt: iso(row.released_at),
    releaseReason: row.release_reason,
  };
}

/**
 * Legal holds: a content admin who is a verified human places a hold on a story (PLACE) and, when the legal
 * matter ends, releases it through the same route (RELEASE with the hold id and a reason). While a hold is
 * ACTIVE the story cannot be corrected, retracted, revised or hidden (409 LEGAL_HOLD_ACTIVE). Both are audited.
 */
export function createLegalHoldService(deps: {
  db: Db<NewsroomTables>;
  transactor: Transactor<NewsroomTables>;
  clock: Clock;
  cursors: CursorCodec;
}) {
  const { db, transactor, clock, cursors } = deps;
  const kind = 'legal-holds';

  async function place(actor: HumanActor, body: LegalHoldBody): Promise<LegalHold> {
    const who = requireVerifiedModerator(actor);
    if (!body.storyId) throw validationFailed([{ path: '/storyId', message: 'PLACE needs the storyId to hold' }]);
    if (body.holdId) throw validationFailed([{ path: '/holdId', message: 'PLACE takes a storyId, not a holdId' }]);
    const storyId = body.storyId;
    return withTransaction(transactor, async (tx, events) => {
      const story = await lockStoryForWrite(tx, events, storyId);
      if (!story) throw notFound('story');
      const existing = await activeHold(tx, story.id);
      if (existing) throw appError('LEGAL_HOLD_EXISTS', { details: [{ path: '/storyId', message: `hold ${existing.id} is active` }] });
      const at = new Date(clock.now());
      const row = await insertHold(tx, {
        id: newId('lh'),
        storyId: story.id,
        reason: body.reason,
        caseReference: body.caseReference ?? null,
        ...who,
        at,
      });
      await appendAudit(tx, {
        scope: 'MODERATION',
        action: 'legal-hold.placed',
        actor,
        target: `story:${story.id}`,
        details: { holdId: row.id, reason: body.reason, caseReference: body.caseReference ?? null },
        at,
      });
      return present(row);
    });
  }

  async function release(actor: HumanActor, body: LegalHoldBody): Promise<LegalHold> {
    const who = requireVerifiedModerator(actor);
    if (!body.holdId) throw validationFailed([{ path: '/holdId', message: 'RELEASE needs the holdId to release' }]);
    const holdId = body.holdId;
    return withTransaction(transactor, async (tx, events) => {
      const storyId = await storyOfHold(tx, holdId);
      if (!storyId || (body.storyId && body.storyId !== storyId)) throw notFound('legal hold');
      // the story lock first, as every writer of the story takes it: a release and a change queue, never cross
      await lockStoryForWrite(tx, events, storyId);
      const hold = await lockHold(tx, holdId);
      if (!hold) throw notFound('legal hold');
      if (hold.status !== 'ACTIVE') throw appError('LEGAL_HOLD_NOT_ACTIVE');
      const at = new Date(clock.now());
      const row = await releaseHold(tx, { id: hold.id, reason: body.reason, ...who, at });
      await appendAudit(tx, {
        scope: 'MODERATION',
        action: 'legal-hold.released',
        actor,
        target: `story:${hold.story_id}`,
        details: { holdId: hold.id, reason: body.reason },
        at,
      });
      return present(row);
    });
  }

  return {
    /** PLACE or RELEASE (the body's action). */
    async write(actor: HumanActor, body: LegalHoldBody): Promise<LegalHold> {
      return body.action === 'PLACE' ? place(actor, body) : release(actor, body);
    },

    /** Holds newest first, optionally of one status and one story; keyset cursor on the hold sequence. */
    async list(
      query: Pick<LegalHoldsQuery, 'status' | 'storyId' | 'limit' | 'cursor'>,
    ): Promise<{ items: LegalHold[]; nextCursor?: string }> {
      const limit = query.limit ?? 20;
      const afterSeq = query.cursor ? (cursors.decode(kind, query.cursor, ['int8'])[0] as string) : null;
      const rows = await listHolds(db, { status: query.status, storyId: query.storyId, afterSeq, limit });
      const page = pageOf(rows, limit, (last) => cursors.encode(kind, [last.seq]));
      return { items: page.items.map(present), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },
  };
}
