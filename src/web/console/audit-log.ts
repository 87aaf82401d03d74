import type { FastifyReply } from 'fastify';
import { AppError } from '../../platform/errors.js';
import type { AuditService } from '../../platform/audit/service.js';
import type { ChainVerdict } from '../../platform/audit/verify-chain.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { t } from '../words/index.js';
import type { ConsoleVisit } from './gate.js';
import { AuditPage, type AuditFilters, type AuditLogRow } from './views/audit.js';

/**
 * The audit log page: one page of the chain from the audit service in process, narrowed by the address's
 * filters. A row's previous-hash link goes to the row before on this page when it is there, else to the
 * unfiltered page that starts at it; a date that is not one is said on the page (400) with the form kept.
 */
export async function auditLogPage(
  reply: FastifyReply,
  props: {
    audit: AuditService;
    visit: ConsoleVisit;
    query: AuditFilters & { cursor?: string | undefined };
    verdict: (ChainVerdict & { at: string }) | null;
    now: number;
  },
) {
  const { audit, visit, query } = props;
  const { lang } = visit;
  const filters: AuditFilters = {};
  for (const name of ['actor', 'action', 'from', 'to'] as const) if (query[name]) filters[name] = query[name];
  const page = { lang, areas: visit.areas, verdict: props.verdict, filters, now: props.now };
  let listed;
  try {
    listed = await audit.list(visit.actor, { ...filters, cursor: query.cursor, limit: 50 });
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'VALIDATION_FAILED') throw err;
    const field = err.details?.[0]?.path;
    const refused =
      field === '/from' || field === '/to'
        ? t(lang, 'console.audit.badDate', { value: filters[field === '/from' ? 'from' : 'to'] ?? '' })
        : t(lang, 'console.audit.emptyRange');
    return sendPage(reply.code(400), AuditPage, { ...page, rows: [], nextCursor: null, refused });
  }
  const onPage = new Set(listed.items.map((e) => e.seq));
  const rows: AuditLogRow[] = listed.items.map((event) => {
    const previous = (BigInt(event.seq) - 1n).toString();
    const anchor = `#audit-${previous}`;
    return {
      event,
      previous:
        previous === '0'
          ? null
          : onPage.has(previous)
            ? anchor
            : `${href('/console/audit', lang, { cursor: audit.pageAt(previous) })}${anchor}`,
    };
  });
  return sendPage(reply, AuditPage, { ...page, rows, nextCursor: listed.nextCursor ?? null, refused: null });
}
