import { appendAudit } from '../../platform/audit/audit-log.js';
import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import type { ReadGeneration } from '../../platform/read-generation.js';
import { requireVerifiedModerator } from './policy.js';
import { citationCount, upsertSourceStatus } from './repository.js';
import type { SourceStatusBody, SourceStatusResponse } from './schemas.js';

/** The id of a source: its host, lowercased, without a leading "www." (as source_host() in migrations/0003_newsroom.sql). */
export function sourceId(id: string): string {
  return id.toLowerCase().replace(/^www\./, '');
}

/**
 * Source statuses: UNRATED (default), TRUSTED, WATCH, BANNED, set per host by a verified
 * content admin and audited. Every story source read shows the status of the source's host; the next safety
 * scan quarantines a candidate citing a BANNED host. A status shows on the sources of every story citing the
 * host, so after the commit every cached public read moves on (one epoch bump: these changes are rare).
 */
export function createSourceStatusService(deps: {
  db: Db<NewsroomTables>;
  transactor: Transactor<NewsroomTables>;
  clock: Clock;
  readGeneration: ReadGeneration;
}) {
  const { db, transactor, clock, readGeneration } = deps;
  return {
    async set(actor: HumanActor, id: string, body: SourceStatusBody): Promise<SourceStatusResponse> {
      const who = requireVerifiedModerator(actor);
      const host = sourceId(id);
      const at = new Date(clock.now());
      const { previous } = await withTransaction(transactor, async (tx) => {
        const result = await upsertSourceStatus(tx, { host, status: body.status, reason: body.reason, ...who, at });
        await appendAudit(tx, {
          scope: 'MODERATION',
          action: 'source.status',
          actor,
          target: `source:${host}`,
          details: { from: result.previous, to: body.status, reason: body.reason },
          at,
        });
        return result;
      });
      // a failed bump leaves cached reads at most their life old (READ_CACHE_TTL_MS; READ_CACHE_STORY_TTL_MS for a
      // story's detail); the change itself committed
      await readGeneration.bump().catch(() => undefined);
      return {
        id: host,
        status: body.status,
        previousStatus: previous,
        reason: body.reason,
        updatedBy: who.by,
        updatedAt: at.toISOString(),
        citations: await citationCount(db, host),
      };
    },
  };
}
