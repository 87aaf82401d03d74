import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { appendAudit } from '../../src/platform/audit/audit-log.js';
import { GENESIS_HASH } from '../../src/platform/audit/chain.js';
import { createTransactor, withTransaction } from '../../src/platform/db/transaction.js';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import type { Json } from '../helpers/json.js';

const AUDIT = '/v1/admin/audit';

/**
 * GET /v1/admin/audit: the chain newest first, narrowed by actor, action and dates, paged by a keyset cursor;
 * content admins only; a date that is not one is a 400.
 */
describe('the audit log API', () => {
  let g: GovernanceApp;
  before(async () => {
    g = await governanceApp();
    const transactor = createTransactor(g.t.db.database.db, []);
    // seven rows: three by the admin (two on 2026-05-04), four by another actor, two actions
    const rows = [
      ['legal-hold.placed', 'gov-admin', 'h_admin', '2026-05-03T23:59:59.000Z'],
      ['legal-hold.placed', 'gov-admin', 'h_admin', '2026-05-04T00:00:00.000Z'],
      ['proposal.created', 'other', undefined, '2026-05-04T12:00:00.000Z'],
      ['proposal.created', 'other', undefined, '2026-05-04T23:59:59.999Z'],
      ['legal-hold.placed', 'gov-admin', 'h_admin', '2026-05-05T00:00:00.000Z'],
      ['proposal.created', 'other', undefined, '2026-05-06T08:00:00.000Z'],
      ['proposal.created', 'other', undefined, '2026-05-07T08:00:00.000Z'],
    ] as const;
    for (const [i, [action, actorId, linkedHumanId, at]] of rows.entries()) {
      await withTransaction(transactor, (tx) =>
        appendAudit(tx, {
          scope: 'MODERATION',
          action,
          actor: { actorId, linkedHumanId },
          target: `story:st_${i}`,
          details: { i },
          at: new Date(at),
        }),
      );
    }
  });
  after(() => g.t.close());

  const list = (query: Record<string, string> = {}, who: 'admin' | 'reader' = 'admin') => g.get<Json>(who, AUDIT, query);
  const seqs = (body: Json) => body.items.map((e: Json) => Number(e.seq));

  test('lists the chain newest first, each row linked to the one before by its hash', async () => {
    const page = await list();
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.deepEqual(seqs(page.body), [7, 6, 5, 4, 3, 2, 1]);
    const items = page.body.items as Json[];
    for (const [i, item] of items.slice(0, -1).entries())
      assert.equal(item.prevHash, items[i + 1]!.hash, `row ${item.seq} links to the row before`);
    assert.equal(items.at(-1)!.prevHash, GENESIS_HASH);
    const { action, actorId, linkedHumanId, target, details } = items[0]!;
    assert.deepEqual(
      { action, actorId, linkedHumanId, target, details },
      { action: 'proposal.created', actorId: 'other', linkedHumanId: null, target: 'story:st_6', details: { i: 6 } },
    );
  });

  test('filters by actor (actorId or linkedHumanId), action and a date range whose end day counts whole', async () => {
    assert.deepEqual(seqs((await list({ actor: 'h_admin' })).body), [5, 2, 1]);
    assert.deepEqual(seqs((await list({ actor: 'gov-admin' })).body), [5, 2, 1]);
    assert.deepEqual(seqs((await list({ action: 'proposal.created' })).body), [7, 6, 4, 3]);
    assert.deepEqual(seqs((await list({ from: '2026-05-04', to: '2026-05-04' })).body), [4, 3, 2]);
    assert.deepEqual(seqs((await list({ from: '2026-05-04T12:00:00Z', to: '2026-05-06T08:00:00Z' })).body), [5, 4, 3]);
    assert.deepEqual(seqs((await list({ actor: 'h_admin', action: 'legal-hold.placed', from: '2026-05-04' })).body), [5, 2]);
    assert.deepEqual(seqs((await list({ actor: 'nobody' })).body), []);
  });

  test('pages with a keyset cursor, filters kept, until the last page has no cursor', async () => {
    const first = await list({ action: 'proposal.created', limit: '3' });
    assert.deepEqual(seqs(first.body), [7, 6, 4]);
    assert.ok(first.body.nextCursor);
    const second = await list({ action: 'proposal.created', limit: '3', cursor: first.body.nextCursor });
    assert.deepEqual(seqs(second.body), [3]);
    assert.equal(second.body.nextCursor, undefined);
    const forged = await list({ cursor: `${first.body.nextCursor.slice(0, -1)}A` });
    assert.equal(forged.status, 400);
    assert.equal(forged.body.code, 'INVALID_CURSOR');
  });

  test('a date that is not one, or a range that ends before it starts, is a 400 naming the parameter', async () => {
    for (const [query, path] of [
      [{ from: '2026-02-30' }, '/from'],
      [{ to: '2026-13-01' }, '/to'],
      [{ from: 'yesterday' }, '/from'],
      [{ to: '2026-05-04T25:00:00Z' }, '/to'],
    ] as const) {
      const answer = await list(query);
      assert.equal(answer.status, 400, JSON.stringify(query));
      assert.equal(answer.body.code, 'VALIDATION_FAILED');
      assert.ok(
        JSON.stringify(answer.body.details).includes(path.slice(1)),
        `${JSON.stringify(query)}: ${JSON.stringify(answer.body.details)}`,
      );
    }
    const backwards = await list({ from: '2026-05-06', to: '2026-05-04' });
    assert.equal(backwards.status, 400);
    assert.equal(backwards.body.code, 'VALIDATION_FAILED');
  });

  test('is refused to a signed reader who is not a content admin, and to an unsigned request', async () => {
    const reader = await list({}, 'reader');
    assert.equal(reader.status, 403);
    assert.equal(reader.body.code, 'CONTENT_ADMIN_REQUIRED');
    const unsigned = await g.t.app.inject({ method: 'GET', url: AUDIT });
    assert.equal(unsigned.statusCode, 401);
  });
});
