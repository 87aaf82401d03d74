import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import { inSnapshot } from './export-repository.js';
import { collectSections, EXPORT_SCHEMA_VERSION, type ExportSources } from './export-sections.js';
import type { UserExport } from './export-schemas.js';

/**
 * The data export (GDPR-style access): one JSON document with everything the service holds about the signed
 * reader, read in one snapshot. Only ever the signed actor's own data.
 */
export function createExportService(deps: { db: Db<ReadersTables>; clock: Clock; sources: ExportSources }) {
  const { db, clock, sources } = deps;
  return {
    async export(actor: HumanActor): Promise<UserExport> {
      const generatedAt = new Date(clock.now()).toISOString();
      const sections = await inSnapshot(db, async (tx) => {
        // the linked human the records bind to this actor, whatever the request signed
        const binding = await sources.identity.binding(tx, actor.actorId);
        return collectSections(tx, { actorId: actor.actorId, linkedHumanId: binding?.linked_human_id ?? null, sources });
      });
      return { schemaVersion: EXPORT_SCHEMA_VERSION, generatedAt, actorId: actor.actorId, sections };
    },
  };
}
