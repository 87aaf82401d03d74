import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/platform/db/database.js';
import { withTestDatabase } from '../helpers/app.js';
import { newsroomFactory } from '../helpers/newsroom-factory.js';
import type { DB } from '../../src/tables.js';

/**
 * A story's search vectors follow its text: set on insert, set again when the text, the language or a vector is
 * written, and kept as they are by an update of anything else (a comment count, a consensus, a trending score).
 */

interface Vectors {
  english: string;
  simple: string;
  cjk: string;
}

async function vectors(db: Db<DB>, id: string): Promise<Vectors> {
  const { rows } = await sql<Vectors>`
    select search_vector::text as english, search_vector_simple::text as simple, search_vector_cjk::text as cjk
    from stories where id = ${id}`.execute(db);
  return rows[0]!;
}

/** Whether the story's vectors find `word` (english: its stemmed vector; simple: as written; cjk: its bigrams). */
async function finds(db: Db<DB>, id: string, vector: 'search_vector' | 'search_vector_simple' | 'search_vector_cjk', query: string) {
  const config = vector === 'search_vector' ? sql`'english'::regconfig` : sql`'simple'::regconfig`;
  const { rows } = await sql<{ hit: boolean }>`
    select ${sql.ref(vector)} @@ plainto_tsquery(${config}, ${query}) as hit from stories where id = ${id}`.execute(db);
  return rows[0]!.hit;
}

test('the vectors follow the text, the language and a vector written directly, and nothing else', () =>
  withTestDatabase(async (t) => {
    const db = t.database.db; // the service's role: the trigger runs with its rights
    const story = await newsroomFactory(db, Date.now()).story({
      lang: 'en',
      title: 'Harbour ferries return',
      summary: 'The night crossing resumes',
      body: 'The lighthouse keeper counted the boats. 电池技术 was on every crate.',
    });
    assert.equal(await finds(db, story.id, 'search_vector', 'lighthouses'), true, 'stemmed: lighthouse');
    assert.equal(await finds(db, story.id, 'search_vector_simple', 'ferries'), true, 'title as written');
    assert.equal(await finds(db, story.id, 'search_vector_cjk', '电池'), true, 'a bigram of the body');

    // an update of anything but the text keeps the vectors byte for byte
    const before = await vectors(db, story.id);
    await sql`update stories set comment_count = comment_count + 1, trending_score = 7, review_status = 'CLEAR' where id = ${story.id}`.execute(
      db,
    );
    assert.deepEqual(await vectors(db, story.id), before);

    // a new body: the old words are gone, the new ones found
    await sql`update stories set body = 'The windmill keeper counted the carts.' where id = ${story.id}`.execute(db);
    assert.equal(await finds(db, story.id, 'search_vector', 'lighthouse'), false);
    assert.equal(await finds(db, story.id, 'search_vector', 'windmills'), true);
    assert.equal(await finds(db, story.id, 'search_vector_cjk', '电池'), false);
    assert.equal((await vectors(db, story.id)).simple, before.simple, 'the simple vector holds no body');

    // another language: the stemmed vector is made with its configuration
    const english = (await vectors(db, story.id)).english;
    await sql`update stories set lang = 'de' where id = ${story.id}`.execute(db);
    assert.notEqual((await vectors(db, story.id)).english, english);
    const german = (
      await sql<{ v: string }>`
      select (setweight(to_tsvector(lang_regconfig('de'), title), 'A') || setweight(to_tsvector(lang_regconfig('de'), summary), 'B') ||
        setweight(to_tsvector(lang_regconfig('de'), claims_text), 'B') || setweight(to_tsvector(lang_regconfig('de'), body), 'C'))::text as v
      from stories where id = ${story.id}`.execute(db)
    ).rows[0]!.v;
    assert.equal((await vectors(db, story.id)).english, german);

    // a vector written directly (the owner can; the service never does) is made from the text again
    const kept = await vectors(db, story.id);
    await sql`update stories set search_vector = ''::tsvector, search_vector_cjk = 'forged'::tsvector where id = ${story.id}`.execute(
      t.owner.db,
    );
    assert.deepEqual(await vectors(db, story.id), kept);
  }));
