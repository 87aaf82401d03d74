import type { GovernanceTables } from '../tables.js';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type {
  ControlPlaneAction,
  ControlPlaneApprovalsTable,
  ControlPlaneRequestsTable,
  ControlPlaneStatus,
  Int8,
} from '../../platform/db/schema.js';

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
  filter: { status?: ControlPlaneStatus; action?: ControlPlaneAction },
  beforeSeq: Int8 | null,
  limit: number,
): Promise<RequestRow[]> {
  let query = db.selectFrom('control_plane_requests').selectAll().orderBy('seq', 'desc').limit(limit);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (beforeSeq !== null) query = query.where('seq', '<', beforeSeq);
  return query.execute();
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
