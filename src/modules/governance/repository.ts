import type { Queryable } from '../../platform/db/database.js';

/** SQL of the governance parameters. */

/** Every parameter row governance has written (name and JSON value). */
export async function parameterRows(db: Queryable): Promise<{ name: string; value: unknown }[]> {
  return db.selectFrom('governance_parameters').select(['name', 'value']).execute();
}
