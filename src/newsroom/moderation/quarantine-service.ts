import { appendAudit } from '../../platform/audit/audit-log.js';
import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { pageOf, type CursorCodec } from '../../platform/cursor.js';
import type { Db, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { withTransaction, type Transactor, type TxEvents } from '../../platform/db/transaction.js';
import { appError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { currentPacket, lockStoryForWrite, versionWithHash, type LockedStory } from '../stories/story-lock.js';
import { setModerationStatus } from '../stories/story-lock.js';
import { assertNoLegalHold } from './legal-hold-guard.js';
import { requireVerifiedModerator } from './policy.js';
import {
  bannedSourceUrls,
  decideItem,
  decisionsOf,
  listQuarantine,
  countQuarantine,
  latestItem,
  lockLatestItem,
  type QuarantineRow,
} from './repository.js';
import { fieldsOf, HARD_BLOCK_CATEGORIES, ruleSpans, scanPacket, type RuleSpan, type SafetyCategory } from './safety-scan.js';
import type { QuarantineItem, QuarantineQuery, ResolveBody } from './schemas.js';

type TraceCategory = { category: string; action: string; hardBlock: boolean };

/** One text field of a held candidate as the scan read it, with where the rules that fired on it matched. */
export interface CandidateField {
  /** The trace's name of the field: title, summary, body, claims/0, sources/0. */
  name: string;
  text: string;
  spans: RuleSpan[];
  /** Rules that fired on the field as a whole (a BANNED source's host): no place in the text to mark. */
  whole: string[];
}

/** A quarantine item with the text its trace scanned (null if that version is gone), marked where rules fired. */
export interface QuarantineCandidate {
  item: QuarantineItem;
  fields: CandidateField[] | null;
}

const firedOn = (rules: unknown[], field: string) =>
  rules.flatMap((r) => {
    const rule = r as { id?: unknown; matched?: unknown; fields?: unknown };
    return typeof rule.id === 'string' && rule.matched === true && Array.isArray(rule.fields) && rule.fields.includes(field)
      ? [rule.id]
      : [];
  });

const hasHardBlock = (categories: readonly { category: string }[]) =>
  categories.some((c) => HARD_BLOCK_CATEGORIES.includes(c.category as SafetyCategory));

function present(row: QuarantineRow, decisions: Awaited<ReturnType<typeof decisionsOf>>): QuarantineItem {
  const categories = row.trace_categories as TraceCategory[];
  return {
    id: row.id,
    scopeType: row.scope_type,
    scopeId: row.scope_id,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    hardBlock: hasHardBlock(categories),
    story: {
      id: row.scope_id,
      title: row.story_title,
      publicationStage: row.story_publication_stage,
      moderationStatus: row.story_moderation_status,
      packetHash: row.story_packet_hash,
    },
    trace: {
      id: row.trace_id,
      packetHash: row.trace_packet_hash,
      decision: row.trace_decision,
      categories,
      rules: row.trace_rules as unknown[],
      scannedAt: row.trace_scanned_at.toISOString(),
    },
    decisions: decisions
      .filter((d) => d.item_id === row.id)
      .map((d) => ({ decision: d.decision, reason: d.reason, decidedBy: d.decided_by, decidedAt: d.decided_at.toISOString() })),
  };
}

const STATUS_AFTER = { RELEASE: 'RELEASED', KEEP: 'KEPT', BLOCK: 'BLOCKED' } as const;

/**
 * The moderation quarantine: what the safety scan held back (QUARANTINE and BLOCK), each with the trace that
 * put it there, and the decisions content admins make on it. Every decision is recorded with who and why and
 * appended to the audit chain in the transaction that applies it.
 */
/**
 * Publishes a released CANDIDATE as PROVISIONAL in the release's transaction: the publish module's step, which
 * the composition root hands to moderation (publish depends on moderation, not the reverse).
 */
export type PublishReleased = (
  tx: Tx<NewsroomTables>,
  events: TxEvents,
  story: LockedStory,
  params: Parameters,
  at: Date,
  reason: string,
) => Promise<void>;

export function createQuarantineService(deps: {
  db: Db<NewsroomTables>;
  transactor: Transactor<NewsroomTables>;
  clock: Clock;
  cursors: CursorCodec;
  publishReleased: PublishReleased;
}) {
  const { db, transactor, clock, cursors, publishReleased } = deps;
  const kind = 'quarantine';

  /** The text an item's trace scanned, marked where its rules fired (null if that version is gone). */
  async function marked(item: QuarantineItem): Promise<CandidateField[] | null> {
    const scanned = await versionWithHash(db, item.scopeId, item.trace.packetHash);
    if (!scanned) return null;
    return fieldsOf(scanned.packet).map(([name, text]) => {
      const fired = firedOn(item.trace.rules, name);
      const spans = ruleSpans(text, fired);
      return { name, text, spans, whole: fired.filter((id) => !spans.some((s) => s.rule === id)) };
    });
  }

  return {
    /** How many items wait for a decision (OPEN): what the console's home says needs a content admin. */
    async waiting(): Promise<number> {
      return countQuarantine(db, ['OPEN']);
    },

    /** A page of items of one status (OPEN by default), oldest first; keyset cursor on the item sequence. */
    async list(query: Pick<QuarantineQuery, 'status' | 'limit' | 'cursor'>): Promise<{ items: QuarantineItem[]; nextCursor?: string }> {
      const limit = query.limit ?? 20;
      const status = query.status ?? 'OPEN';
      const afterSeq = query.cursor ? (cursors.decode(`${kind}:${status}`, query.cursor, ['int8'])[0] as string) : null;
      const rows = await listQuarantine(db, { statuses: [status], afterSeq, limit });
      const page = pageOf(rows, limit, (last) => cursors.encode(`${kind}:${status}`, [last.seq]));
      const decisions = await decisionsOf(
        db,
        page.items.map((r) => r.id),
      );
      return { items: page.items.map((r) => present(r, decisions)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },

    /**
     * One item (the latest of the story) with the text of the packet its trace scanned, each field marked where
     * the rules that fired on it match (for the content admin who decides it; the API lists the items only).
     */
    async candidate(scopeId: string): Promise<QuarantineCandidate> {
      const row = await latestItem(db, 'story', scopeId);
      if (!row) throw notFound('quarantine item');
      const item = present(row, await decisionsOf(db, [row.id]));
      return { item, fields: await marked(item) };
    },

    /** The text an item's trace scanned, marked where its rules fired (null if that version is gone). */
    marked,

    /**
     * Decides an OPEN or KEPT item. RELEASE publishes the story as PROVISIONAL, unless its trace, or a scan
     * of its packet now, names a hard-block category (no forced ALLOW); KEEP leaves it hidden
     * and off the open queue; BLOCK hides it for good (refused under a legal hold). RELEASED and BLOCKED are final.
     */
    async resolve(actor: HumanActor, scopeId: string, body: ResolveBody, params: Parameters): Promise<QuarantineItem> {
      const who = requireVerifiedModerator(actor);
      return withTransaction(transactor, async (tx, events) => {
        const story = await lockStoryForWrite(tx, events, scopeId);
        const item = story ? await lockLatestItem(tx, 'story', scopeId) : null;
        if (!story || !item) throw notFound('quarantine item');
        if (item.status === 'RELEASED' || item.status === 'BLOCKED')
          throw appError('QUARANTINE_ALREADY_DECIDED', { message: `This item was already ${item.status.toLowerCase()}` });
        const at = new Date(clock.now());

        if (body.decision === 'RELEASE') {
          const rescan = scanPacket(await currentPacket(tx, story), { bannedSourceUrls: await bannedSourceUrls(tx, story.id) });
          if (hasHardBlock(item.trace_categories as TraceCategory[]) || rescan.decision === 'BLOCK')
            throw appError('QUARANTINE_HARD_BLOCK');
          if (story.publication_stage === 'CANDIDATE') {
            await publishReleased(tx, events, story, params, at, `released from quarantine: ${body.reason}`);
          } else {
            await setModerationStatus(tx, story, 'ALLOWED', at);
          }
        } else if (body.decision === 'BLOCK') {
          await assertNoLegalHold(tx, story.id);
          await setModerationStatus(tx, story, 'BLOCKED', at);
        }
        const status = STATUS_AFTER[body.decision];
        await decideItem(tx, {
          itemId: item.id,
          decisionId: newId('qd'),
          decision: body.decision,
          status,
          reason: body.reason,
          ...who,
          at,
        });
        await appendAudit(tx, {
          scope: 'MODERATION',
          action: `quarantine.${body.decision.toLowerCase()}`,
          actor,
          target: `story:${story.id}`,
          details: { itemId: item.id, from: item.status, to: status, reason: body.reason, traceId: item.trace_id },
          at,
        });
        const after = await lockLatestItem(tx, 'story', scopeId);
        return present(after!, await decisionsOf(tx, [item.id]));
      });
    },
  };
}
