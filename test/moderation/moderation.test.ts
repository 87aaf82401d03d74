import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';

const QUARANTINE = '/v1/admin/moderation/quarantine';
const HOLDS = '/v1/admin/moderation/legal-holds';

describe('moderation: quarantine, legal holds and source statuses', () => {
  let g: GovernanceApp;
  let news: ReturnType<typeof newsroomClient>;
  before(async () => {
    g = await governanceApp({ RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000' });
    news = newsroomClient(g.t.baseUrl);
  });
  after(() => g.t.close());

  const resolve = (storyId: string, decision: string, reason = 'reviewed by the desk', who: 'admin' | 'reader' = 'admin') =>
    g.post<Json>(who, `${QUARANTINE}/story/${storyId}/resolve`, { decision, reason });

  async function quarantined(overrides: Record<string, unknown> = { body: 'Sea salt cures cancer, a miracle cure, locals say.' }) {
    const author = await news.joinBot('quarantined-author');
    const candidate = await news.submit(author, overrides);
    const scan = await news.publish(candidate.hash);
    return { ...candidate, scan: scan.body };
  }

  test('the queue lists what the scan quarantined with its trace; RELEASE publishes it as PROVISIONAL, audited', async () => {
    const held = await quarantined();
    assert.equal(held.scan.decision, 'QUARANTINE');
    assert.equal((await g.client.get(`/v1/stories/${held.storyId}`)).status, 404, 'hidden from the public');

    const list = await g.get<Json>('admin', QUARANTINE);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const item = list.body.items.find((i: Json) => i.scopeId === held.storyId);
    assert.ok(item, 'the quarantined story is in the queue');
    assert.equal(item.scopeType, 'story');
    assert.equal(item.status, 'OPEN');
    assert.equal(item.trace.decision, 'QUARANTINE');
    assert.equal(item.trace.packetHash, held.hash);
    assert.deepEqual(
      item.trace.categories.map((c: Json) => c.category),
      ['UNVERIFIED_HEALTH_CLAIM'],
    );
    assert.equal(item.hardBlock, false);

    const released = await resolve(held.storyId, 'RELEASE', 'satire column, labelled as such');
    assert.equal(released.status, 202, JSON.stringify(released.body));
    assert.equal(released.body.status, 'RELEASED');
    assert.deepEqual(
      released.body.decisions.map((d: Json) => [d.decision, d.decidedBy, d.reason]),
      [['RELEASE', 'h_admin', 'satire column, labelled as such']],
    );
    const story = await g.client.get<Json>(`/v1/stories/${held.storyId}`);
    assert.equal(story.status, 200);
    assert.equal(story.body.publicationStage, 'PROVISIONAL');

    const again = await resolve(held.storyId, 'BLOCK');
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'QUARANTINE_ALREADY_DECIDED');
    const audit = await g.t.db.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target', '=', `story:${held.storyId}`)
      .executeTakeFirstOrThrow();
    assert.equal(audit.scope, 'MODERATION');
    assert.equal(audit.action, 'quarantine.release');
    assert.equal(audit.linked_human_id, 'h_admin');
    assert.equal((audit.details as Json).reason, 'satire column, labelled as such');
  });

  test('a forced ALLOW of a hard-block category is refused; KEEP and BLOCK are recorded', async () => {
    const blocked = await quarantined({ body: 'Reporters found she lives at 42 Elm Street and her phone is 555-123-4567.' });
    assert.equal(blocked.scan.decision, 'BLOCK');
    const refused = await resolve(blocked.storyId, 'RELEASE');
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'QUARANTINE_HARD_BLOCK');
    assert.equal((await g.client.get(`/v1/stories/${blocked.storyId}`)).status, 404, 'still never published');

    const kept = await resolve(blocked.storyId, 'KEEP', 'legal wants to look first');
    assert.equal(kept.status, 202);
    assert.equal(kept.body.status, 'KEPT');
    assert.equal(kept.body.hardBlock, true);
    const keptList = await g.get<Json>('admin', QUARANTINE, { status: 'KEPT' });
    assert.ok(keptList.body.items.some((i: Json) => i.scopeId === blocked.storyId));
    const open = await g.get<Json>('admin', QUARANTINE);
    assert.ok(!open.body.items.some((i: Json) => i.scopeId === blocked.storyId), 'a kept item leaves the open queue');

    const final = await resolve(blocked.storyId, 'BLOCK', 'doxxing');
    assert.equal(final.status, 202);
    assert.equal(final.body.status, 'BLOCKED');
    assert.deepEqual(
      final.body.decisions.map((d: Json) => d.decision),
      ['KEEP', 'BLOCK'],
    );
  });

  test('the queue pages with a keyset cursor; a tampered cursor is 400', async () => {
    for (let i = 0; i < 3; i++) await quarantined({ body: `Graphic footage of the execution number ${i} circulated.` });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await g.get<Json>('admin', QUARANTINE, { limit: '2', ...(cursor ? { cursor } : {}) });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.ok(page.body.items.length <= 2);
      seen.push(...page.body.items.map((i: Json) => i.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.equal(new Set(seen).size, seen.length, 'no item twice');
    assert.ok(seen.length >= 3);
    const bad = await g.get<Json>('admin', QUARANTINE, { cursor: 'garbage' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'INVALID_CURSOR');
  });

  test('only content admins read the queue; decisions need a verified human; unknown scopes and items are refused', async () => {
    const reader = await g.get<Json>('reader', QUARANTINE);
    assert.equal(reader.status, 403);
    assert.equal(reader.body.code, 'CONTENT_ADMIN_REQUIRED');
    const held = await quarantined();
    const unverified = await g.post<Json>('admin', `${QUARANTINE}/story/${held.storyId}/resolve`, {
      decision: 'RELEASE',
      reason: 'x',
      verified: false,
    });
    assert.equal(unverified.status, 403);
    assert.equal(unverified.body.code, 'VERIFIED_ACTOR_REQUIRED');
    const scope = await g.post<Json>('admin', `${QUARANTINE}/comment/${held.storyId}/resolve`, { decision: 'KEEP', reason: 'x' });
    assert.equal(scope.status, 400);
    const missing = await resolve('st_does_not_exist', 'KEEP');
    assert.equal(missing.status, 404);
    const noReason = await g.post<Json>('admin', `${QUARANTINE}/story/${held.storyId}/resolve`, { decision: 'KEEP' });
    assert.equal(noReason.status, 400);
    const override = await g.post<Json>('admin', `${QUARANTINE}/story/${held.storyId}/resolve`, { decision: 'ALLOW', reason: 'x' });
    assert.equal(override.status, 400, 'ALLOW is not a decision: RELEASE is, and it is checked');
  });

  test('a legal hold freezes a story (no correction, retraction, revision or hiding) until released', async () => {
    const story = await news.publishedStory();
    const placed = await g.post<Json>('admin', HOLDS, {
      action: 'PLACE',
      storyId: story.storyId,
      reason: 'subpoena',
      caseReference: 'CV-2026-114',
    });
    assert.equal(placed.status, 202, JSON.stringify(placed.body));
    assert.equal(placed.body.status, 'ACTIVE');
    assert.equal(placed.body.placedBy, 'h_admin');
    const twice = await g.post<Json>('admin', HOLDS, { action: 'PLACE', storyId: story.storyId, reason: 'again' });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 'LEGAL_HOLD_EXISTS');

    const correction = await g.post<Json>('admin', `/v1/admin/stories/${story.storyId}/correction`, {
      changes: { summary: 'A corrected summary.' },
      note: 'fix',
    });
    assert.equal(correction.status, 409);
    assert.equal(correction.body.code, 'LEGAL_HOLD_ACTIVE');
    const retraction = await g.post<Json>('admin', `/v1/admin/stories/${story.storyId}/retraction`, { reason: 'wrong' });
    assert.equal(retraction.body.code, 'LEGAL_HOLD_ACTIVE');
    const reviser = await news.joinBot('reviser');
    const proposal = await news.client.agentWrite<Json>(reviser, '/v1/agents/revision-proposals', {
      botId: reviser.botId,
      verified: false,
      storyId: story.storyId,
      packetHash: story.hash,
      changes: { summary: 'A revised summary.' },
      rationale: 'clearer',
    });
    assert.equal(proposal.status, 409);
    assert.equal(proposal.body.code, 'LEGAL_HOLD_ACTIVE');

    const listed = await g.get<Json>('admin', HOLDS, { status: 'ACTIVE', storyId: story.storyId });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.items.map((h: Json) => [h.id, h.caseReference]),
      [[placed.body.id, 'CV-2026-114']],
    );

    const noId = await g.post<Json>('admin', HOLDS, { action: 'RELEASE', reason: 'case closed' });
    assert.equal(noId.status, 400);
    const released = await g.post<Json>('admin2', HOLDS, { action: 'RELEASE', holdId: placed.body.id, reason: 'case closed' });
    assert.equal(released.status, 202, JSON.stringify(released.body));
    assert.equal(released.body.status, 'RELEASED');
    assert.equal(released.body.releasedBy, 'h_admin2');
    const again = await g.post<Json>('admin2', HOLDS, { action: 'RELEASE', holdId: placed.body.id, reason: 'case closed' });
    assert.equal(again.body.code, 'LEGAL_HOLD_NOT_ACTIVE');
    const nowCorrectable = await g.post<Json>('admin', `/v1/admin/stories/${story.storyId}/correction`, {
      changes: { summary: 'A corrected summary.' },
      note: 'fix',
    });
    assert.equal(nowCorrectable.status, 202, JSON.stringify(nowCorrectable.body));
    const actions = await g.t.db.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('target', '=', `story:${story.storyId}`)
      .orderBy('seq')
      .execute();
    assert.deepEqual(
      actions.map((a) => a.action),
      ['legal-hold.placed', 'legal-hold.released', 'story.corrected'],
    );
  });

  test('a held quarantined story cannot be hidden for good (BLOCK refused)', async () => {
    const held = await quarantined();
    const hold = await g.post<Json>('admin', HOLDS, { action: 'PLACE', storyId: held.storyId, reason: 'evidence' });
    assert.equal(hold.status, 202);
    const block = await resolve(held.storyId, 'BLOCK');
    assert.equal(block.status, 409);
    assert.equal(block.body.code, 'LEGAL_HOLD_ACTIVE');
  });

  test('source status shows on every story source read, is audited, and BANNED quarantines the next candidate citing it', async () => {
    const story = await news.publishedStory({ sources: [{ url: 'https://www.Rumour-Mill.example/a', title: 'Tip' }] });
    const set = await g.post<Json>('admin', '/v1/admin/sources/rumour-mill.example/status', {
      status: 'BANNED',
      reason: 'fabricated quotes',
    });
    assert.equal(set.status, 202, JSON.stringify(set.body));
    assert.equal(set.body.id, 'rumour-mill.example');
    assert.equal(set.body.previousStatus, 'UNRATED');
    assert.equal(set.body.citations, 1);

    const detail = await g.client.get<Json>(`/v1/stories/${story.storyId}`);
    assert.equal(detail.body.sources[0].sourceStatus, 'BANNED', 'story detail (read cache included) shows it at once');
    const sources = await g.client.get<Json>(`/v1/stories/${story.storyId}/sources`);
    assert.equal(sources.body.sources[0].sourceStatus, 'BANNED');

    const next = await quarantined({ sources: [{ url: 'https://rumour-mill.example/b' }, { url: 'https://example.org/fine' }] });
    assert.equal(next.scan.decision, 'QUARANTINE');
    const rule = next.scan.rules.find((r: Json) => r.id === 'source.banned') as Json;
    assert.deepEqual(rule.fields, ['sources/0']);

    const trusted = await g.post<Json>('admin', '/v1/admin/sources/RUMOUR-MILL.example/status', {
      status: 'TRUSTED',
      reason: 'retracted the ban',
    });
    assert.equal(trusted.body.previousStatus, 'BANNED');
    const clean = await quarantined({ sources: [{ url: 'https://rumour-mill.example/c' }] });
    assert.equal(clean.scan.decision, 'ALLOW');
    const audit = await g.t.db.database.db
      .selectFrom('audit_events')
      .select(['action', 'details'])
      .where('target', '=', 'source:rumour-mill.example')
      .orderBy('seq')
      .execute();
    assert.deepEqual(
      audit.map((a) => [(a.details as Json).from, (a.details as Json).to]),
      [
        ['UNRATED', 'BANNED'],
        ['BANNED', 'TRUSTED'],
      ],
    );
    const bad = await g.post<Json>('admin', '/v1/admin/sources/rumour-mill.example/status', { status: 'EVIL', reason: 'x' });
    assert.equal(bad.status, 400);
  });

  test('every moderation route is in /openapi.json with its error answers', async () => {
    const doc = (await g.client.get<Json>('/openapi.json')).body;
    const routes: [string, string, string[]][] = [
      ['/v1/admin/moderation/quarantine', 'get', ['200', '400', '401', '403']],
      ['/v1/admin/moderation/quarantine/{scopeType}/{scopeId}/resolve', 'post', ['202', '400', '401', '403', '404', '409']],
      ['/v1/admin/moderation/legal-holds', 'get', ['200', '400', '401', '403']],
      ['/v1/admin/moderation/legal-holds', 'post', ['202', '400', '401', '403', '404', '409']],
      ['/v1/admin/sources/{id}/status', 'post', ['202', '400', '401', '403']],
      ['/v1/admin/stories/{id}/correction', 'post', ['202', '400', '401', '403', '404', '409']],
      ['/v1/admin/stories/{id}/retraction', 'post', ['202', '400', '401', '403', '404', '409']],
    ];
    for (const [path, method, statuses] of routes) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path} documented`);
      for (const s of statuses) assert.ok(op.responses[s], `${method} ${path} documents ${s}`);
    }
  });
});
