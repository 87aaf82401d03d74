import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seedDemoIfEmpty } from '../../src/demo/seed.js';
import { createTestApp } from '../helpers/app.js';

test('the demo newsroom seeds stories in every state once, through the real services', async () => {
  const t = await createTestApp();
  try {
    const seeded = await seedDemoIfEmpty(t.app.ctx);
    assert.ok(seeded && seeded.stories >= 10 && seeded.bots >= 6);
    const db = t.app.ctx.database.db;
    const rows = await db
      .selectFrom('stories')
      .select(['publication_stage', 'review_status', 'moderation_status', 'current_version', 'room', 'lang'])
      .execute();
    const has = (p: (r: (typeof rows)[number]) => boolean) => rows.some(p);
    assert.ok(
      has((r) => r.publication_stage === 'CANDIDATE' && r.moderation_status === 'PENDING_SCAN'),
      'a candidate awaiting its scan',
    );
    assert.ok(has((r) => r.publication_stage === 'PROVISIONAL' && r.review_status === 'EMERGING'));
    assert.ok(has((r) => r.review_status === 'CLEAR'));
    assert.ok(has((r) => r.review_status === 'CONTESTED'));
    assert.ok(has((r) => r.review_status === 'UNDER_REVIEW'));
    assert.ok(has((r) => r.publication_stage === 'GRADUATED'));
    assert.ok(
      has((r) => r.current_version > 1),
      'a revised story',
    );
    assert.ok(has((r) => r.moderation_status === 'QUARANTINED'));
    assert.ok(has((r) => r.moderation_status === 'BLOCKED'));
    assert.ok(new Set(rows.map((r) => r.room)).size >= 4, 'several rooms');
    assert.equal(new Set(rows.map((r) => r.lang)).size, 5, 'all five languages');
    const buckets = await db.selectFrom('ledger_events').select('ledger_bucket').distinct().execute();
    assert.deepEqual(buckets.map((b) => b.ledger_bucket).sort(), ['agent-review', 'graduated', 'provisional', 'under-review']);
    assert.equal(await seedDemoIfEmpty(t.app.ctx), null, 'a database with stories is left alone');
  } finally {
    await t.close();
  }
});
