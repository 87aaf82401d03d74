import { sql, type RawBuilder } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import type { ReviewCaseEventsTable, ReviewCasesTable } from '../rows.js';
import { payoutById, payoutsOf, payoutsOfPerson } from '../payout-scope-repository.js';

/** SQL of fraud review cases, freezes and the review queue. */

/**
 * The queue view of a case (docs/rewards.md, "Fraud review and freezes (rewards admins)"): closed → RESOLVED;
 * ESCALATED; APPEALED; a case whose target is frozen now → FROZEN; past its due time → OVERDUE; else PENDING.
 */
export type QueueView = 'PENDING' | 'OVERDUE' | 'FROZEN' | 'APPEALED' | 'ESCALATED' | 'RESOLVED';

export function queueView(now: Date): RawBuilder<QueueView> {
  return sql<QueueView>`case
    when c.status in ('RESOLVED', 'DISMISSED') then 'RESOLVED'
    when c.status = 'ESCALATED' then 'ESCALATED'
    when c.status = 'APPEALED' then 'APPEALED'
    when (c.target_type = 'RECIPIENT' and exists (select 1 from reward_recipients r where r.id = c.target_id and r.frozen_at is not null))
      or (c.target_type = 'STORY' and exists (select 1 from reward_story_freezes f where f.story_id = c.target_id))
      or (c.target_type = 'PAYOUT' and exists (select 1 from payouts p where ${payoutById(sql.ref('c.target_id'), 'p')} and p.status = 'FROZEN'))
      then 'FROZEN'
    when c.due_at <= ${now} then 'OVERDUE'
    else 'PENDING' end`;
}

export interface CaseFilters {
  queue?: string | undefined;
  status?: string | undefined;
  assignedToActorId?: string | undefined;
  targetType?: string | undefined;
}

export async function findCases(db: Queryable<RewardsTables>, filters: CaseFilters, now: Date, limit: number, openOnly = false) {
  let query = db.selectFrom('review_cases as c').selectAll('c').select(queueView(now).as('queue')).orderBy('c.seq', 'asc').limit(limit);
  if (filters.status) query = query.where('c.status', '=', filters.status as ReviewCasesTable['status']);
  if (filters.assignedToActorId) query = query.where('c.assigned_to_actor_id', '=', filters.assignedToActorId);
  if (filters.targetType) query = query.where('c.target_type', '=', filters.targetType as ReviewCasesTable['target_type']);
  if (filters.queue) query = query.where(queueView(now), '=', filters.queue as QueueView);
  if (openOnly) query = query.where('c.status', 'not in', ['RESOLVED', 'DISMISSED']);
  return query.execute();
}

/** How many review cases are not closed (neither RESOLVED nor DISMISSED). */
export async function countOpenCases(db: Queryable<RewardsTables>): Promise<number> {
  const row = await db
    .selectFrom('review_cases')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', 'not in', ['RESOLVED', 'DISMISSED'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertCase(tx: Tx<RewardsTables>, row: Omit<ReviewCasesTable, 'seq'>) {
  return tx.insertInto('review_cases').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function lockCase(tx: Tx<RewardsTables>, id: string) {
  return (await tx.selectFrom('review_cases').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()) ?? null;
}

export async function updateCase(tx: Tx<RewardsTables>, id: string, set: Partial<Omit<ReviewCasesTable, 'id' | 'seq'>>) {
  return tx.updateTable('review_cases').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function insertCaseEvent(tx: Tx<RewardsTables>, row: ReviewCaseEventsTable): Promise<void> {
  await tx.insertInto('review_case_events').values(row).execute();
}

export async function caseEvents(db: Queryable<RewardsTables>, caseId: string) {
  return db.selectFrom('review_case_events').selectAll().where('case_id', '=', caseId).orderBy('created_at').orderBy('id').execute();
}

/** Whether a review target of the rewards' own exists (a story target is the newsroom's: `ReviewStories`). */
export async function targetExists(
  db: Queryable<RewardsTables>,
  type: Exclude<ReviewCasesTable['target_type'], 'STORY'>,
  id: string,
): Promise<boolean> {
  switch (type) {
    case 'RECIPIENT':
      return Boolean(await db.selectFrom('reward_recipients').select('id').where('id', '=', id).executeTakeFirst());
    case 'PAYOUT':
      return Boolean(await db.selectFrom('payouts').select('id').where(payoutById(id)).executeTakeFirst());
    case 'BATCH':
      return Boolean(await db.selectFrom('claim_batches').select('id').where('id', '=', id).executeTakeFirst());
  }
}

// ---- freezes ----------------------------------------------------------------------------------------------

export async function lockRecipient(tx: Tx<RewardsTables>, id: string) {
  return (await tx.selectFrom('reward_recipients').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()) ?? null;
}

export async function setRecipientFrozen(
  tx: Tx<RewardsTables>,
  id: string,
  frozen: { at: Date; reason: string; by: string } | null,
  now: Date,
) {
  await tx
    .updateTable('reward_recipients')
    .set({ frozen_at: frozen?.at ?? null, frozen_reason: frozen?.reason ?? null, frozen_by: frozen?.by ?? null, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Freezes a story for rewards; false when it already was. */
export async function insertStoryFreeze(tx: Tx<RewardsTables>, storyId: string, reason: string, by: string, at: Date): Promise<boolean> {
  const row = await tx
    .insertInto('reward_story_freezes')
    .values({ story_id: storyId, reason, frozen_by: by, frozen_at: at })
    .onConflict((oc) => oc.column('story_id').doNothing())
    .returning('story_id')
    .executeTakeFirst();
  return Boolean(row);
}

export async function deleteStoryFreeze(tx: Tx<RewardsTables>, storyId: string): Promise<boolean> {
  const row = await tx.deleteFrom('reward_story_freezes').where('story_id', '=', storyId).returning('story_id').executeTakeFirst();
  return Boolean(row);
}

/**
 * Pending payouts (not yet paid: payable, waiting or held) of a recipient's person become FROZEN. A payout's
 * linked_human_id is its owner person (recipient_id is only ever set to that person's recipient).
 */
export async function freezeRecipientPayouts(tx: Tx<RewardsTables>, linkedHumanId: string, now: Date): Promise<number> {
  const { numAffectedRows } = await sql`
    update payouts set status = 'FROZEN', status_reason = 'RECIPIENT_FROZEN', updated_at = ${now}
    where status in ('PAYABLE', 'PENDING_RECIPIENT', 'REVIEW') and ${payoutsOfPerson('HUMAN', linkedHumanId)}`.execute(tx);
  return Number(numAffectedRows ?? 0);
}

export async function freezeStoryPayouts(tx: Tx<RewardsTables>, storyId: string, now: Date): Promise<number> {
  const { numAffectedRows } = await sql`
    update payouts set status = 'FROZEN', status_reason = 'STORY_FROZEN', updated_at = ${now}
    where status in ('PAYABLE', 'PENDING_RECIPIENT', 'REVIEW') and ${payoutsOf('story', storyId)}`.execute(tx);
  return Number(numAffectedRows ?? 0);
}

/**
 * Unfreeze: frozen payouts go to REVIEW (never straight to payable) unless another freeze still holds them
 * (their story frozen, or their person's recipient frozen), in which case they stay FROZEN with that reason.
 */
export async function reviewUnfrozenPayouts(tx: Tx<RewardsTables>, where: { linkedHumanId: string } | { storyId: string }, now: Date) {
  const scope = 'storyId' in where ? payoutsOf('story', where.storyId, 'p') : payoutsOfPerson('HUMAN', where.linkedHumanId, 'p');
  const { rows } = await sql<{ status: string }>`
    update payouts p set
      status = case when still.story_frozen or still.recipient_frozen then 'FROZEN' else 'REVIEW' end,
      status_reason = case when still.story_frozen then 'STORY_FROZEN' when still.recipient_frozen then 'RECIPIENT_FROZEN'
        else 'UNFROZEN_PENDING_REVIEW' end,
      updated_at = ${now}
    from (
      select q.seq,
        exists (select 1 from reward_story_freezes f where f.story_id = q.story_id) as story_frozen,
        exists (select 1 from reward_recipients r where r.frozen_at is not null
          and (r.id = q.recipient_id or r.linked_human_id = q.linked_human_id)) as recipient_frozen
      from payouts q where q.status = 'FROZEN'
    ) still
    where p.seq = still.seq and p.status = 'FROZEN' and ${scope}
    returning p.status`.execute(tx);
  return rows.filter((r) => r.status === 'REVIEW').length;
}

/** Review-held payouts of a case's target go back to payable (or waiting for a wallet); frozen ones stay. */
export async function releaseReviewedPayouts(tx: Tx<RewardsTables>, target: { type: string; id: string }, now: Date): Promise<number> {
  const scope =
    target.type === 'STORY'
      ? payoutsOf('story', target.id, 'p')
      : target.type === 'PAYOUT'
        ? payoutById(target.id, 'p')
        : sql`p.linked_human_id = (select linked_human_id from reward_recipients where id = ${target.id})`;
  const { numAffectedRows } = await sql`
    update payouts p set
      status = case when r.wallet_verified_at is not null then 'PAYABLE' else 'PENDING_RECIPIENT' end,
      status_reason = case when r.wallet_verified_at is not null then null else 'NO_VERIFIED_WALLET' end,
      recipient_id = r.id, updated_at = ${now}
    from payouts q left join reward_recipients r on r.linked_human_id = q.linked_human_id
    where p.seq = q.seq and p.status = 'REVIEW' and ${scope}`.execute(tx);
  return Number(numAffectedRows ?? 0);
}

// ---- the review queue ---------------------------------------------------------------------------------------

export async function frozenRecipients(db: Queryable<RewardsTables>, limit: number) {
  return db
    .selectFrom('reward_recipients as r')
    .select(['r.id', 'r.frozen_at', 'r.frozen_reason', 'r.frozen_by'])
    .select((eb) =>
      eb
        .selectFrom('payouts as p')
        .select(sql<string>`count(*)::text || ':' || coalesce(sum(p.amount_base), 0)::text`.as('held'))
        .where('p.status', '=', 'FROZEN')
        .where((w) => w.or([w('p.recipient_id', '=', w.ref('r.id')), w('p.linked_human_id', '=', w.ref('r.linked_human_id'))]))
        .as('held'),
    )
    .where('r.frozen_at', 'is not', null)
    .orderBy('r.frozen_at')
    .limit(limit)
    .execute();
}

export async function frozenStories(db: Queryable<RewardsTables>, limit: number) {
  return db
    .selectFrom('reward_story_freezes as f')
    .select(['f.story_id', 'f.frozen_at', 'f.reason', 'f.frozen_by'])
    .select((eb) =>
      eb
        .selectFrom('payouts as p')
        .select(sql<string>`count(*)::text || ':' || coalesce(sum(p.amount_base), 0)::text`.as('held'))
        .where('p.status', '=', 'FROZEN')
        .where(payoutsOf('story', sql.ref('f.story_id'), 'p'))
        .as('held'),
    )
    .orderBy('f.frozen_at')
    .limit(limit)
    .execute();
}

export async function heldPayouts(db: Queryable<RewardsTables>, limit: number) {
  return db.selectFrom('payouts').selectAll().where('status', '=', 'REVIEW').orderBy('seq').limit(limit).execute();
}

/**
 * The rewards recipient behind a bot or a reader, with the person it is: a bot's payouts go to its payout owner
 * (bot_payout_owners), a reader's to the linked human their actor is bound to (`boundTo`, read from identity's
 * bindings by the caller). Null when that person is no recipient (nothing to freeze).
 */
export async function recipientBehind(db: Queryable<RewardsTables>, member: { kind: 'bot' | 'actor'; id: string }, boundTo: string | null) {
  const { rows } = await (
    member.kind === 'bot'
      ? sql<{ id: string; linked_human_id: string; frozen_at: Date | null }>`
        SELECT r.id, r.linked_human_id, r.frozen_at FROM bot_payout_owners o
        JOIN reward_recipients r ON r.linked_human_id = o.linked_human_id WHERE o.bot_id = ${member.id}`
      : sql<{ id: string; linked_human_id: string; frozen_at: Date | null }>`
        SELECT r.id, r.linked_human_id, r.frozen_at FROM reward_recipients r
        WHERE r.actor_id = ${member.id}
           OR r.linked_human_id = ${boundTo}
        ORDER BY r.id LIMIT 1`
  ).execute(db);
  return rows[0] ?? null;
}
