import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { compareSchema, readDatabaseSchema, readDeclaredSchema, type DbRelation } from '../helpers/schema-check.js';

// The Kysely types of src/platform/db/schema.ts against the database the migrations build (the rules are in
// test/helpers/schema-check.ts). A new migration fails this test until schema.ts declares what it changed.

const SCHEMA_FILE = 'src/platform/db/schema.ts';

let db: TestDatabase;
let relations: DbRelation[];

before(async () => {
  db = await createTestDatabase();
  relations = await readDatabaseSchema(db.database);
});

after(async () => {
  await db?.drop();
});

test('schema.ts declares every table and column of the migrated database, with matching types', () => {
  assert.ok(
    relations.some((r) => r.name === 'stories'),
    'the catalog query found the tables',
  );
  const problems = compareSchema(relations, readDeclaredSchema());
  if (problems.length > 0)
    assert.fail(`${SCHEMA_FILE} does not match the migrated database (${problems.length}):\n  ${problems.join('\n  ')}`);
});

test('the comparison reports each drift of a doctored schema.ts, by table and column', () => {
  const replaceOnce = (text: string, from: string, to: string) => {
    assert.equal(text.split(from).length, 2, `exactly one ${JSON.stringify(from)} in ${SCHEMA_FILE}`);
    return text.replace(from, to);
  };
  let doctored = readFileSync(new URL(`../../${SCHEMA_FILE}`, import.meta.url), 'utf8');
  doctored = replaceOnce(doctored, '  operator_contact: string | null;\n', ''); // a column left out
  doctored = replaceOnce(doctored, '  published_at: Date | null;\n', '  published_at: Date;\n'); // nullability
  doctored = replaceOnce(doctored, '  read_count: Generated<number>;\n', '  read_count: number;\n'); // default
  doctored = replaceOnce(doctored, '\n  verified_at: Date | null;\n', '\n  verified_at: string | null;\n'); // type
  doctored = replaceOnce(doctored, '  user_bookmarks: UserBookmarksTable;\n', ''); // a table left out
  doctored = replaceOnce(doctored, '  seq: Frozen<Int8>;\n', '  seq: Frozen<Int8>;\n  sequence: Frozen<Int8>;\n'); // a column too many

  assert.deepEqual(compareSchema(relations, readDeclaredSchema({ [SCHEMA_FILE]: doctored })), [
    'audit_events.sequence: declared in AuditEventsTable but the database has no such column',
    'bots.operator_contact: column in the database (text) but not declared in BotsTable',
    "bots.verified_at: timestamp with time zone in the database, expected Date, but 'string | null' selects as string | null",
    "reading_history.read_count: has a default (1) in the database but 'number' is required on insert; use Generated<…> or a ColumnType whose insert type includes undefined",
    "stories.published_at: nullable in the database but 'Date' does not include null",
    'user_bookmarks: table in the database but not in the DB interface',
  ]);
});
