import type { Config } from '../../config.js';
import { onAllowlist, type AllowlistSubject } from '../auth/admin-policy.js';
import { pageOf, type CursorCodec } from '../cursor.js';
import type { Queryable } from '../db/database.js';
import type { PlatformTables } from '../tables.js';
import { appError, validationFailed } from '../errors.js';
import { listAuditEvents, type AuditRow } from './repository.js';
import { hashedFields } from './verify-chain.js';
import type { AuditEvent, AuditEventsPage } from './schemas.js';
import { verifyAuditChain, type ChainVerdict } from './verify-chain.js';

/** The filters and page of a read of the audit log, as the API's query and the console's address carry them. */
export interface AuditListQuery {
  actor?: string | undefined;
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

const CURSOR_KIND = 'audit';
const DAY_MS = 86_400_000;
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/**
 * A day or an instant of a filter as a Date, or a 400 naming the parameter: the form is the schema's, the calendar
 * is checked here (no 2026-02-30, no 25:00), so no text reaches the database as a date it cannot read.
 */
function instantOf(name: 'from' | 'to', text: string): { at: Date; dayOnly: boolean } {
  const bad = () => validationFailed([{ path: `/${name}`, message: `“${text}” is not a date (YYYY-MM-DD) or an ISO 8601 instant` }]);
  const m = INSTANT.exec(text);
  if (!m) throw bad();
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) throw bad();
  if (m[4] === undefined) return { at: date, dayOnly: true };
  const [hour, minute, second, offsetHour, offsetMinute] = [m[4], m[5], m[6] ?? '0', m[7] ?? '0', m[8] ?? '0'].map(Number) as number[];
  if (hour! > 23 || minute! > 59 || second! > 59 || offsetHour! > 23 || offsetMinute! > 59) throw bad();
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw bad();
  return { at, dayOnly: false };
}

function present(row: AuditRow): AuditEvent {
  return { ...hashedFields(row), hash: row.hash };
}

/**
 * The audit chain for the people who may read it (content admins, as the console's audit area): its rows newest
 * first, filtered and keyset-paged by seq, and the walk that verifies it. The chain is written only by
 * `appendAudit`, inside each change's own transaction.
 */
export function createAuditService(deps: { db: Queryable<PlatformTables>; cursors: CursorCodec; config: Pick<Config, 'contentAdminIds'> }) {
  const { db, cursors, config } = deps;
  const requireReader = (who: AllowlistSubject) => {
    if (!onAllowlist(config.contentAdminIds, who)) throw appError('CONTENT_ADMIN_REQUIRED');
  };

  return {
    /** One page of the chain, newest first, narrowed by actor, action and a date range (`to` takes a whole day). */
    async list(who: AllowlistSubject, query: AuditListQuery): Promise<AuditEventsPage> {
      requireReader(who);
      const limit = query.limit ?? 20;
      const from = query.from ? instantOf('from', query.from).at : undefined;
      const to = query.to ? instantOf('to', query.to) : undefined;
      const before = to ? new Date(to.at.getTime() + (to.dayOnly ? DAY_MS : 0)) : undefined;
      if (from && before && from >= before) throw validationFailed([{ path: '', message: '`to` is before `from`: the range is empty' }]);
      const beforeSeq = query.cursor ? (cursors.decode(CURSOR_KIND, query.cursor, ['int8'])[0] as string) : null;
      const rows = await listAuditEvents(db, { actor: query.actor, action: query.action, from, before, beforeSeq, limit: limit + 1 });
      const page = pageOf(rows, limit, (last) => cursors.encode(CURSOR_KIND, [last.seq]));
      return { items: page.items.map(present), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },

    /** The cursor of the unfiltered page that starts at row `seq`: where a row's previous-hash link leads. */
    pageAt(seq: string): string {
      return cursors.encode(CURSOR_KIND, [(BigInt(seq) + 1n).toString()]);
    },

    /** Walks the whole chain as `npm run audit:verify` does and names the first broken row. */
    async verify(who: AllowlistSubject): Promise<ChainVerdict> {
      requireReader(who);
      return verifyAuditChain(db);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
