import type { GovernanceTables } from '../tables.js';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { GovernanceEmergenciesTable, GovernanceProposalsTable, ProposalStatus } from '../rows.js';

/** SQL of the governance parameters, proposals and emergencies. */

export type ProposalRow = Selectable<GovernanceProposalsTable>;
export type EmergencyRow = Selectable<GovernanceEmergenciesTable>;

/** The advisory lock that serializes governance changes (activations and emergency measures) with each other. */
const GOVERNANCE_LOCK_KEY = 7_346_221_003;

/**
 * Every stored value that bears on the parameters: governance's rows, and the overlay of the active emergency
 * (`emergency: true`). One query: the newsroom reads it on every request that needs parameters.
 */
export async function parameterRows(db: Queryable<GovernanceTables>): Promise<{ name: string; value: unknown; emergency: boolean }[]> {
  const result = await sql<{ name: string; value: unknown; emergency: boolean }>`
    SELECT name, value, false AS emergency FROM governance_parameters
    UNION ALL
    SELECT o.key, o.value, true FROM governance_emergencies e, jsonb_each(e.overlay) o WHERE e.status = 'ACTIVE'`.execute(db);
  return result.rows;
}

/** Which proposal last set each parameter, and when. */
export async function parameterOrigins(db: Queryable<GovernanceTables>) {
  return db.selectFrom('governance_parameters').select(['name', 'updated_by_proposal_id', 'updated_at']).execute();
}

export async function upsertParameter(
  tx: Tx<GovernanceTables>,
  row: { name: string; value: number; defaultValue: number; proposalId: string; at: Date },
): Promise<void> {
  const value = JSON.stringify(row.value);
  await tx
    .insertInto('governance_parameters')
    .values({
      name: row.name,
      value,
      default_value: JSON.stringify(row.defaultValue),
      updated_by_proposal_id: row.proposalId,
      updated_at: row.at,
    })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({
        value,
        default_value: JSON.stringify(row.defaultValue),
        updated_by_proposal_id: row.proposalId,
        updated_at: row.at,
      }),
    )
    .execute();
}

/** Serializes governance changes until the transaction ends (two activations never interleave their writes). */
export async function lockGovernance(tx: Tx<GovernanceTables>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(GOVERNANCE_LOCK_KEY)})`.execute(tx);
}

export async function insertProposal(tx: Tx<GovernanceTables>, row: Insertable<GovernanceProposalsTable>): Promise<ProposalRow> {
  return tx.insertInto('governance_proposals').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function lockProposal(tx: Tx<GovernanceTables>, id: string): Promise<ProposalRow | null> {
  return (await tx.selectFrom('governance_proposals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()) ?? null;
}

export async function proposalExists(db: Queryable<GovernanceTables>, id: string): Promise<boolean> {
  return Boolean(await db.selectFrom('governance_proposals').select('id').where('id', '=', id).executeTakeFirst());
}

export async function updateProposal(
  tx: Tx<GovernanceTables>,
  id: string,
  set: Updateable<GovernanceProposalsTable>,
): Promise<ProposalRow> {
  return tx.updateTable('governance_proposals').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** How many proposals are DRAFT (to ratify) and RATIFIED (to activate). */
export async function countOpenProposals(db: Queryable<GovernanceTables>): Promise<{ draft: number; ratified: number }> {
  const rows = await db
    .selectFrom('governance_proposals')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('status', 'in', ['DRAFT', 'RATIFIED'])
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { draft: count('DRAFT'), ratified: count('RATIFIED') };
}

/** DRAFT and RATIFIED proposals, oldest first. */
export async function openProposals(db: Queryable<GovernanceTables>, limit: number): Promise<ProposalRow[]> {
  return db
    .selectFrom('governance_proposals')
    .selectAll()
    .where('status', 'in', ['DRAFT', 'RATIFIED'])
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/**
 * Marks SUPERSEDED every proposal in one of `from` (the states that may be superseded) made before `seq`
 * that changes any of `names`; returns their ids.
 */
export async function supersedeOlderProposals(
  tx: Tx<GovernanceTables>,
  by: { id: string; seq: string; names: string[]; from: ProposalStatus[]; at: Date },
): Promise<string[]> {
  if (by.from.length === 0 || by.names.length === 0) return [];
  const rows = await tx
    .updateTable('governance_proposals')
    .set({ status: 'SUPERSEDED', superseded_by: by.id, superseded_at: by.at, updated_at: by.at })
    .where('status', 'in', by.from)
    .where('seq', '<', by.seq)
    .where(sql<boolean>`changes ?| ${sql.val(by.names)}::text[]`)
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort();
}

export async function findActiveEmergency(db: Queryable<GovernanceTables>): Promise<EmergencyRow | null> {
  return (await db.selectFrom('governance_emergencies').selectAll().where('status', '=', 'ACTIVE').executeTakeFirst()) ?? null;
}

export async function lastClearedEmergency(db: Queryable<GovernanceTables>): Promise<EmergencyRow | null> {
  return (
    (await db
      .selectFrom('governance_emergencies')
      .selectAll()
      .where('status', '=', 'CLEARED')
      .orderBy('cleared_at', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}

export async function insertEmergency(tx: Tx<GovernanceTables>, row: Insertable<GovernanceEmergenciesTable>): Promise<EmergencyRow> {
  return tx.insertInto('governance_emergencies').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function clearEmergency(
  tx: Tx<GovernanceTables>,
  id: string,
  set: { clearedBy: string; at: Date; reason: string | null; requestId: string | null },
): Promise<EmergencyRow> {
  return tx
    .updateTable('governance_emergencies')
    .set({ status: 'CLEARED', cleared_by: set.clearedBy, cleared_at: set.at, clear_reason: set.reason, clear_request_id: set.requestId })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
