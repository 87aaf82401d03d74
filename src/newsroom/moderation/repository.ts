import type { Queryable, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { QuarantineDecision, QuarantineStatus, SourceRating } from '../rows.js';

/** SQL of moderation: the quarantine queue and its decisions, legal holds, source statuses. */

// ---- quarantine

/** Opens a quarantine item for a story the scan held back (nothing when one is already pending for it). */
export async function openQuarantineItem(
  tx: Tx<NewsroomTables>,
  row: { id: string; storyId: string; traceId: string; at: Date },
): Promise<void> {
  await tx
    .insertInto('quarantine_items')
    .values({ id: row.id, scope_type: 'story', scope_id: row.storyId, trace_id: row.traceId, created_at: row.at })
    .onConflict((oc) => oc.columns(['scope_type', 'scope_id']).where('status', 'in', ['OPEN', 'KEPT']).doNothing())
    .execute();
}

const ITEM_COLUMNS = [
  'q.id',
  'q.seq',
  'q.scope_type',
  'q.scope_id',
  'q.status',
  'q.created_at',
  'q.decided_by',
  'q.decided_at',
  'q.decision_reason',
  't.id as trace_id',
  't.packet_hash as trace_packet_hash',
  't.decision as trace_decision',
  't.categories as trace_categories',
  't.rules as trace_rules',
  't.scanned_at as trace_scanned_at',
  's.title as story_title',
  's.publication_stage as story_publication_stage',
  's.moderation_status as story_moderation_status',
  's.current_packet_hash as story_packet_hash',
] as const;

function items(db: Queryable<NewsroomTables>) {
  return db
    .selectFrom('quarantine_items as q')
    .innerJoin('safety_traces as t', 't.id', 'q.trace_id')
    .innerJoin('stories as s', 's.id', 'q.scope_id')
    .select(ITEM_COLUMNS);
}

export type QuarantineRow = Awaited<ReturnType<ReturnType<typeof items>['executeTakeFirstOrThrow']>>;

/** How many items of the queue are in one of `statuses` (the console's home counts the OPEN ones). */
export async function countQuarantine(db: Queryable<NewsroomTables>, statuses: QuarantineStatus[]): Promise<number> {
  const row = await db
    .selectFrom('quarantine_items')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', 'in', statuses)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of the queue in the order items arrived (oldest first: a work queue), after `afterSeq`. */
export async function listQuarantine(
  db: Queryable<NewsroomTables>,
  filter: { statuses: QuarantineStatus[]; afterSeq: string | null; limit: number },
): Promise<QuarantineRow[]> {
  let query = items(db)
    .where('q.status', 'in', filter.statuses)
    .orderBy('q.seq')
    .limit(filter.limit + 1);
  if (filter.afterSeq) query = query.where('q.seq', '>', filter.afterSeq);
  return query.execute();
}

/** The latest item of a scope, read (the console's page of one item). */
export async function latestItem(db: Queryable<NewsroomTables>, scopeType: 'story', scopeId: string): Promise<QuarantineRow | null> {
  const row = await items(db)
    .where('q.scope_type', '=', scopeType)
    .where('q.scope_id', '=', scopeId)
    .orderBy('q.seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** The latest item of a scope (pending ones first), locked for the decision. */
export async function lockLatestItem(tx: Tx<NewsroomTables>, scopeType: 'story', scopeId: string): Promise<QuarantineRow | null> {
  const row = await items(tx)
    .where('q.scope_type', '=', scopeType)
    .where('q.scope_id', '=', scopeId)
    .orderBy('q.seq', 'desc')
    .limit(1)
    .forUpdate('q')
    .executeTakeFirst();
  return row ?? null;
}

export async function decideItem(
  tx: Tx<NewsroomTables>,
  input: {
    itemId: string;
    decisionId: string;
    decision: QuarantineDecision;
    status: QuarantineStatus;
    reason: string;
    by: string;
    actorId: string;
    at: Date;
  },
): Promise<void> {
  await tx
    .insertInto('quarantine_decisions')
    .values({
      id: input.decisionId,
      item_id: input.itemId,
      decision: input.decision,
      reason: input.reason,
      decided_by: input.by,
      decided_by_actor_id: input.actorId,
      decided_at: input.at,
    })
    .execute();
  await tx
    .updateTable('quarantine_items')
    .set({
      status: input.status,
      decided_by: input.by,
      decided_by_actor_id: input.actorId,
      decided_at: input.at,
      decision_reason: input.reason,
    })
    .where('id', '=', input.itemId)
    .execute();
}

export async function decisionsOf(db: Queryable<NewsroomTables>, itemIds: string[]) {
  if (itemIds.length === 0) return [];
  return db
    .selectFrom('quarantine_decisions')
    .select(['item_id', 'decision', 'reason', 'decided_by', 'decided_at'])
    .where('item_id', 'in', itemIds)
    .orderBy('decided_at')
    .execute();
}

// ---- legal holds

export async function activeHold(db: Queryable<NewsroomTables>, storyId: string) {
  return (
    (await db.selectFrom('legal_holds').selectAll().where('story_id', '=', storyId).where('status', '=', 'ACTIVE').executeTakeFirst()) ??
    null
  );
}

export type LegalHoldRow = NonNullable<Awaited<ReturnType<typeof activeHold>>>;

export async function insertHold(
  tx: Tx<NewsroomTables>,
  row: { id: string; storyId: string; reason: string; caseReference: string | null; by: string; actorId: string; at: Date },
): Promise<LegalHoldRow> {
  return tx
    .insertInto('legal_holds')
    .values({
      id: row.id,
      story_id: row.storyId,
      reason: row.reason,
      case_reference: row.caseReference,
      placed_by: row.by,
      placed_by_actor_id: row.actorId,
      placed_at: row.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The story a hold is on (null when there is no such hold); read before the story lock is taken. */
export async function storyOfHold(db: Queryable<NewsroomTables>, id: string): Promise<string | null> {
  return (await db.selectFrom('legal_holds').select('story_id').where('id', '=', id).executeTakeFirst())?.story_id ?? null;
}

export async function lockHold(tx: Tx<NewsroomTables>, id: string): Promise<LegalHoldRow | null> {
  return (await tx.selectFrom('legal_holds').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()) ?? null;
}

export async function releaseHold(
  tx: Tx<NewsroomTables>,
  input: { id: string; reason: string; by: string; actorId: string; at: Date },
): Promise<LegalHoldRow> {
  return tx
    .updateTable('legal_holds')
    .set({
      status: 'RELEASED',
      released_by: input.by,
      released_by_actor_id: input.actorId,
      released_at: input.at,
      release_reason: input.reason,
    })
    .where('id', '=', input.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listHolds(
  db: Queryable<NewsroomTables>,
  filter: { status?: 'ACTIVE' | 'RELEASED'; storyId?: string; afterSeq: string | null; limit: number },
) {
  let query = db
    .selectFrom('legal_holds')
    .selectAll()
    .orderBy('seq', 'desc')
    .limit(filter.limit + 1);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.storyId) query = query.where('story_id', '=', filter.storyId);
  if (filter.afterSeq) query = query.where('seq', '<', filter.afterSeq);
  return query.execute();
}

// ---- source statuses

export async function upsertSourceStatus(
  tx: Tx<NewsroomTables>,
  row: { host: string; status: SourceRating; reason: string; by: string; actorId: string; at: Date },
): Promise<{ previous: SourceRating }> {
  const previous = await tx.selectFrom('source_statuses').select('status').where('host', '=', row.host).forUpdate().executeTakeFirst();
  const values = { status: row.status, reason: row.reason, updated_by: row.by, updated_by_actor_id: row.actorId, updated_at: row.at };
  await tx
    .insertInto('source_statuses')
    .values({ host: row.host, ...values })
    .onConflict((oc) => oc.column('host').doUpdateSet(values))
    .execute();
  return { previous: previous?.status ?? 'UNRATED' };
}

/** How many story citations (active or not) name the host. */
export async function citationCount(db: Queryable<NewsroomTables>, host: string): Promise<number> {
  const row = await db
    .selectFrom('story_sources')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('host', '=', host)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The urls a story has cited (in any version) whose host is BANNED. */
export async function bannedSourceUrls(db: Queryable<NewsroomTables>, storyId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('story_sources as s')
    .innerJoin('source_statuses as r', 'r.host', 's.host')
    .select('s.url')
    .where('s.story_id', '=', storyId)
    .where('r.status', '=', 'BANNED')
    .execute();
  return new Set(rows.map((r) => r.url));
}
