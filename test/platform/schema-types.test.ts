import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { compareSchema, readDatabaseSchema, readDeclaredSchema, type DbRelation } from '../helpers/schema-check.js';

// The Kysely types of the whole database (src/tables.ts: every owner's rows.ts) against the database the
// migrations build (the rules are in test/helpers/schema-check.ts). A new migration fails this test until the
// owner of the table declares what it changed.

const SCHEMA_FILE = 'src/tables.ts';

let db: TestDatabase;
let relations: DbRelation[];

before(async () => {
  db = await createTestDatabase();
  relations = await readDatabaseSchema(db.database);
});

after(async () => {
  await db?.drop();
});

test('the row types declare every table and column of the migrated database, with matching types', () => {
  assert.ok(
    relations.some((r) => r.name === 'stories'),
    'the catalog query found the tables',
  );
  const problems = compareSchema(relations, readDeclaredSchema());
  if (problems.length > 0)
    assert.fail(`${SCHEMA_FILE} does not match the migrated database (${problems.length}):\n  ${problems.join('\n  ')}`);
});

test('the comparison reports each drift of doctored row types, by table and column', () => {
  const doctored: Record<string, string> = {};
  const replaceOnce = (file: string, from: string, to: string) => {
    const text = doctored[file] ?? readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
    assert.equal(text.split(from).length, 2, `exactly one ${JSON.stringify(from)} in ${file}`);
    doctored[file] = text.replace(from, to);
  };
  replaceOnce('src/identity/rows.ts', '  operator_contact: string | null;\n', ''); // a column left out
  replaceOnce('src/newsroom/rows.ts', '  published_at: Date | null;\n', '  published_at: Date;\n'); // nullability
  replaceOnce('src/readers/rows.ts', '  read_count: Generated<number>;\n', '  read_count: number;\n'); // default
  replaceOnce('src/identity/rows.ts', '\n  verified_at: Date | null;\n', '\n  verified_at: string | null;\n'); // type
  replaceOnce('src/readers/rows.ts', '  user_bookmarks: UserBookmarksTable;\n', ''); // a table left out
  replaceOnce('src/platform/rows.ts', '  seq: Frozen<Int8>;\n', '  seq: Frozen<Int8>;\n  sequence: Frozen<Int8>;\n'); // a column too many

  assert.deepEqual(compareSchema(relations, readDeclaredSchema(doctored)), [
    'audit_events.sequence: declared in AuditEventsTable but the database has no such column',
    'bots.operator_contact: column in the database (text) but not declared in BotsTable',
    "bots.verified_at: timestamp with time zone in the database, expected Date, but 'string | null' selects as string | null",
    "reading_history.read_count: has a default (1) in the database but 'number' is required on insert; use Generated<…> or a ColumnType whose insert type includes undefined",
    "stories.published_at: nullable in the database but 'Date' does not include null",
    'user_bookmarks: table in the database but not in the DB interface',
  ]);
});
