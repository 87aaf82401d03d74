import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { findBinding, inSnapshot } from './export-repository.js';
import { collectSections, EXPORT_SCHEMA_VERSION, type ReaderPayouts } from './export-sections.js';
import type { UserExport } from './export-schemas.js';

/**
 * The data export (GDPR-style access): one JSON document with everything the service holds about the signed
 * reader, read in one snapshot. Only ever the signed actor's own data.
 */
export function createExportService(deps: { db: Db; clock: Clock; payouts: ReaderPayouts }) {
  const { db, clock, payouts } = deps;
  return {
    async export(actor: HumanActor): Promise<UserExport> {
      const generatedAt = new Date(clock.now()).toISOString();
      const sections = await inSnapshot(db, async (tx) => {
        // the linked human the records bind to this actor, whatever the request signed
        const binding = await findBinding(tx, actor.actorId);
        return collectSections(tx, { actorId: actor.actorId, linkedHumanId: binding?.linked_human_id ?? null, payouts });
      });
      return { schemaVersion: EXPORT_SCHEMA_VERSION, generatedAt, actorId: actor.actorId, sections };
    },
  };
}
