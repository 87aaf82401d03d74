import type { GovernanceTables } from '../tables.js';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { ControlPlaneAction, ControlPlaneApprovalsTable, ControlPlaneRequestsTable, ControlPlaneStatus } from '../rows.js';
import type { Int8 } from '../../platform/db/row-types.js';

/** SQL of the control-plane requests and their approvals. */

export type RequestRow = Selectable<ControlPlaneRequestsTable>;
export type ApprovalRow = Selectable<ControlPlaneApprovalsTable>;

export async function insertRequest(tx: Tx<GovernanceTables>, row: Insertable<ControlPlaneRequestsTable>): Promise<RequestRow> {
  return tx.insertInto('control_plane_requests').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findRequest(db: Queryable<GovernanceTables>, id: string): Promise<RequestRow | null> {
  return (await db.selectFrom('control_plane_requests').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** Locks the request row: approvals, cancellation and consumption of one request happen one at a time. */
export async function lockRequest(tx: Tx<GovernanceTables>, id: string): Promise<RequestRow | null> {
  return (await tx.selectFrom('control_plane_requests').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()) ?? null;
}

export async function updateRequest(tx: Tx<GovernanceTables>, id: string, set: Updateable<ControlPlaneRequestsTable>): Promise<RequestRow> {
  return tx.updateTable('control_plane_requests').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Up to `limit` requests before `beforeSeq` (newest first), optionally of one status and one action. */
export async function requestsBefore(
  db: Queryable<GovernanceTables>,
  filter: { status?: ControlPlaneStatus; action?: ControlPlaneAction; actions?: readonly ControlPlaneAction[] },
  beforeSeq: Int8 | null,
  limit: number,
): Promise<RequestRow[]> {
  let query = db.selectFrom('control_plane_requests').selectAll().orderBy('seq', 'desc').limit(limit);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.actions) query = query.where('action', 'in', [...filter.actions]);
  if (beforeSeq !== null) query = query.where('seq', '<', beforeSeq);
  return query.execute();
}

/**
 * The PENDING requests of `actions` that wait for `approver`: filed by someone else and not yet approved by them (oldest
 * first, at most `limit`).
 */
export async function pendingFor(
  db: Queryable<GovernanceTables>,
  approver: string,
  actions: readonly ControlPlaneAction[],
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('control_plane_requests as r')
    .select('r.id')
    .where('r.status', '=', 'PENDING')
    .where('r.action', 'in', [...actions])
    .where('r.requested_by', '!=', approver)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('control_plane_approvals as a')
            .select('a.approver')
            .whereRef('a.request_id', '=', 'r.id')
            .where('a.approver', '=', approver),
        ),
      ),
    )
    .orderBy('r.seq')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** The actor ids behind the identity keys of these requests' requesters and approvers (pages name people by them). */
export async function actorIdsOf(
  db: Queryable<GovernanceTables>,
  requestIds: readonly string[],
): Promise<{ key: string; actorId: string }[]> {
  if (requestIds.length === 0) return [];
  const ids = [...new Set(requestIds)];
  const [requesters, approvers] = await Promise.all([
    db
      .selectFrom('control_plane_requests')
      .select(['requested_by as key', 'requested_by_actor_id as actorId'])
      .where('id', 'in', ids)
      .execute(),
    db
      .selectFrom('control_plane_approvals')
      .select(['approver as key', 'approver_actor_id as actorId'])
      .where('request_id', 'in', ids)
      .execute(),
  ]);
  return [...requesters, ...approvers];
}

export async function approvalsOf(db: Queryable<GovernanceTables>, requestId: string): Promise<ApprovalRow[]> {
  return db
    .selectFrom('control_plane_approvals')
    .selectAll()
    .where('request_id', '=', requestId)
    .orderBy('approved_at')
    .orderBy('approver')
    .execute();
}

export async function hasApproved(db: Queryable<GovernanceTables>, requestId: string, approver: string): Promise<boolean> {
  return Boolean(
    await db
      .selectFrom('control_plane_approvals')
      .select('approver')
      .where('request_id', '=', requestId)
      .where('approver', '=', approver)
      .executeTakeFirst(),
  );
}

/** Inserts an approval; null when this approver already approved the request (primary key). */
export async function insertApproval(tx: Tx<GovernanceTables>, row: ApprovalRow): Promise<ApprovalRow | null> {
  return (
    (await tx
      .insertInto('control_plane_approvals')
      .values(row)
      .onConflict((oc) => oc.columns(['request_id', 'approver']).doNothing())
      .returningAll()
      .executeTakeFirst()) ?? null
  );
}
