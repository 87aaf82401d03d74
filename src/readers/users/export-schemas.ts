import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../../platform/schemas.js';
import { EXPORT_SCHEMA_VERSION, ExportSectionsSchema } from './export-sections.js';

/** GET /v1/users/me/export: every section is documented field by field in docs/reader-accounts.md. */
export const UserExportResponse = Type.Object(
  {
    schemaVersion: Type.Integer({
      description: `Version of this document's layout (now ${EXPORT_SCHEMA_VERSION}); new sections and fields keep it, renames and removals bump it`,
    }),
    generatedAt: DateTime,
    actorId: Type.String(),
    sections: ExportSectionsSchema,
  },
  {
    title: 'UserExport',
    description:
      'Everything the service holds about one reader, read in one snapshot: the layout version, when it was made and one member per section (docs/reader-accounts.md).',
  },
);
export type UserExport = Static<typeof UserExportResponse>;
