import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createReadsTestApp, HOUR_MS, NOW, type ReadsTestApp } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

const STORY_KEYS = [
  'authorBotId',
  'body',
  'claims',
  'counts',
  'createdAt',
  'graduatedAt',
  'id',
  'labels',
  'lang',
  'links',
  'packetHash',
  'publicationStage',
  'publishedAt',
  'reviewStatus',
  'rewardWindow',
  'room',
  'sources',
  'state',
  'summary',
  'title',
  'updatedAt',
  'version',
];

describe('story reads', () => {
  let t: ReadsTestApp;
  before(async () => {
    t = await createReadsTestApp();
  });
  after(() => t.close());

  test('GET /v1/stories/:id answers the full story; /v1/article/:id and /v1/cluster/:id answer the same body', async () => {
    const story = await t.factory.story({
      room: 'local',
      counts: { attestations: 2, objections: 1, comments: 4, flags: 1, rewardVotes: 3 },
    });
    const res = await t.get<Json>(`/v1/stories/${story.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), STORY_KEYS);
    assert.equal(res.body.id, story.id);
    assert.equal(res.body.state, 'PROVISIONAL');
    assert.equal(res.body.publicationStage, 'PROVISIONAL');
    assert.equal(res.body.reviewStatus, 'EMERGING');
    assert.equal(res.body.version, 1);
    assert.equal(res.body.packetHash, story.packetHash);
    assert.deepEqual(res.body.claims, story.packet.claims);
    assert.deepEqual(
      res.body.sources.map((s: Json) => [s.url, s.status]),
      [[story.packet.sources[0]!.url, 'UNREVIEWED']],
    );
    assert.deepEqual(res.body.counts, { attestations: 2, objections: 1, comments: 4, flags: 1, rewardVotes: 3 });
    assert.deepEqual(res.body.rewardWindow, {
      opensAt: new Date(NOW - HOUR_MS).toISOString(),
      closesAt: new Date(NOW - HOUR_MS + 72 * HOUR_MS).toISOString(),
      active: true,
    });
    assert.deepEqual(res.body.labels, { state: 'Provisional', reviewStatus: 'Emerging', publicationStage: 'Provisional' });
    assert.equal(res.body.links.machineRoom, `/v1/stories/${story.id}/machine-room`);
    assert.equal(res.body.links.assistantOrientation, `/v1/stories/${story.id}/assistant-orientation`);
    for (const alias of ['article', 'cluster']) {
      const other = await t.get(`/v1/${alias}/${story.id}`);
      assert.equal(other.status, 200);
      assert.deepEqual(other.body, res.body);
    }
  });

  test('labels follow lang; an unsupported lang is 400 VALIDATION_FAILED on every localized story read', async () => {
    const story = await t.factory.story({ stage: 'GRADUATED', review: 'CLEAR' });
    const de = await t.get<Json>(`/v1/stories/${story.id}?lang=de`);
    assert.deepEqual(de.body.labels, { state: 'Bestätigt', reviewStatus: 'Ohne Einwände', publicationStage: 'Bestätigt' });
    const zh = await t.get<Json>(`/v1/cluster/${story.id}?lang=zh-Hans`);
    assert.equal(zh.body.labels.state, '已确认');
    for (const path of [`/v1/stories/${story.id}`, `/v1/article/${story.id}`, `/v1/stories/${story.id}/assistant-orientation`]) {
      const bad = await t.get<Json>(`${path}?lang=it`);
      assert.equal(bad.status, 400, path);
      assert.equal(bad.body.code, 'VALIDATION_FAILED');
      assert.deepEqual(
        bad.body.details.map((d: Json) => d.path),
        ['/querystring/lang'],
      );
    }
  });

  test('an unknown story is 404 NOT_FOUND on every story read', async () => {
    for (const suffix of ['', '/versions', '/sources', '/comments', '/flags', '/consensus', '/machine-room', '/assistant-orientation']) {
      const res = await t.get<Json>(`/v1/stories/st_missing${suffix}`);
      assert.equal(res.status, 404, suffix);
      assert.equal(res.body.code, 'NOT_FOUND');
      assert.equal(typeof res.body.requestId, 'string');
    }
    assert.equal((await t.get('/v1/article/st_missing')).status, 404);
    assert.equal((await t.get('/v1/cluster/st_missing')).status, 404);
  });

  test('a quarantined or blocked story is 404 on every public read, the same as an unknown one', async () => {
    for (const moderation of ['QUARANTINED', 'BLOCKED'] as const) {
      const story = await t.factory.story({ stage: 'CANDIDATE', moderation });
      for (const path of ['/v1/stories/', '/v1/article/', '/v1/cluster/']) assert.equal((await t.get(`${path}${story.id}`)).status, 404);
      for (const suffix of ['/versions', '/sources', '/comments', '/flags', '/consensus', '/machine-room', '/assistant-orientation']) {
        assert.equal((await t.get(`/v1/stories/${story.id}${suffix}`)).status, 404, `${moderation} ${suffix}`);
      }
    }
  });

  test('a candidate awaiting its scan is readable by id (its bot reads back the packet hash)', async () => {
    const story = await t.factory.story({ stage: 'CANDIDATE' });
    const res = await t.get<Json>(`/v1/stories/${story.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.publicationStage, 'CANDIDATE');
    assert.equal(res.body.state, null);
    assert.equal(res.body.labels.state, 'Not yet published');
    assert.equal(res.body.packetHash, story.packetHash);
    assert.deepEqual(res.body.rewardWindow, { opensAt: null, closesAt: null, active: false });
    const room = await t.get<Json>(`/v1/stories/${story.id}/machine-room`);
    assert.equal(room.body.packetHash, story.packetHash);
  });

  test('a story id that cannot be an id is 400, not a database error', async () => {
    const res = await t.get<Json>(`/v1/stories/${encodeURIComponent("st'; drop table stories; --")}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'VALIDATION_FAILED');
  });

  test('versions list every packet with its hash; sources show status, active flag and the version that added them', async () => {
    const v1 = await t.factory.story({ sources: [{ url: 'https://example.org/a', title: 'A' }, { url: 'https://example.org/b' }] });
    const v2 = await t.factory.revise(
      v1,
      { title: 'Revised title', sources: [{ url: 'https://example.org/a', title: 'A' }, { url: 'https://example.org/c' }] },
      { proposalId: 'rp_1', createdBy: 'bot_x' },
    );
    const versions = await t.get<Json>(`/v1/stories/${v1.id}/versions`);
    assert.equal(versions.status, 200);
    assert.equal(versions.body.currentVersion, 2);
    assert.equal(versions.body.currentPacketHash, v2.packetHash);
    assert.deepEqual(
      versions.body.versions.map((v: Json) => [v.version, v.packetHash, v.proposalId, v.current, v.packet.title]),
      [
        [1, v1.packetHash, null, false, v1.packet.title],
        [2, v2.packetHash, 'rp_1', true, 'Revised title'],
      ],
    );
    assert.equal(versions.body.versions[1].createdBy, 'bot_x');
    const sources = await t.get<Json>(`/v1/stories/${v1.id}/sources`);
    assert.deepEqual(
      sources.body.sources.map((s: Json) => [s.url, s.active, s.addedInVersion, s.status]),
      [
        ['https://example.org/a', true, 1, 'UNREVIEWED'],
        ['https://example.org/b', false, 1, 'UNREVIEWED'],
        ['https://example.org/c', true, 2, 'UNREVIEWED'],
      ],
    );
    const detail = await t.get<Json>(`/v1/stories/${v1.id}`);
    assert.equal(detail.body.title, 'Revised title');
    assert.deepEqual(
      detail.body.sources.map((s: Json) => s.url),
      ['https://example.org/a', 'https://example.org/c'],
    );
    const v3 = await t.factory.revise(v2, {
      sources: [{ url: 'https://example.org/z' }, { url: 'https://example.org/c' }, { url: 'https://example.org/a', title: 'A' }],
    });
    const reordered = await t.get<Json>(`/v1/stories/${v3.id}`);
    assert.deepEqual(
      reordered.body.sources.map((s: Json) => s.url),
      ['https://example.org/z', 'https://example.org/c', 'https://example.org/a'],
      'the packet order',
    );
  });

  test('comments page oldest first with a keyset cursor; nextCursor is absent on the last page', async () => {
    const story = await t.factory.story();
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) ids.push(await t.factory.comment(story.id, { body: `comment ${i}` }));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await t.get<Json>(`/v1/stories/${story.id}/comments?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      seen.push(...res.body.items.map((c: Json) => c.id));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor);
    assert.deepEqual(seen, ids);
    assert.equal(pages, 3);
    const all = await t.get<Json>(`/v1/stories/${story.id}/comments`);
    assert.equal(all.body.items.length, 7);
    assert.equal('nextCursor' in all.body, false);
    assert.deepEqual(Object.keys(all.body.items[0]).sort(), ['actorId', 'body', 'createdAt', 'deleted', 'id', 'parentId', 'verified']);
  });

  test('comments and flags: limit must be an integer from 1 to 100; a tampered cursor or one of another story is 400 INVALID_CURSOR', async () => {
    const a = await t.factory.story();
    const b = await t.factory.story();
    for (let i = 0; i < 2; i += 1) {
      await t.factory.comment(a.id);
      await t.factory.flag(a.id);
    }
    for (const list of ['comments', 'flags']) {
      for (const limit of ['0', '101', '1.5', 'ten']) {
        const res = await t.get<Json>(`/v1/stories/${a.id}/${list}?limit=${limit}`);
        assert.equal(res.status, 400, `${list} limit=${limit}`);
        assert.equal(res.body.code, 'VALIDATION_FAILED');
      }
      assert.equal((await t.get(`/v1/stories/${a.id}/${list}?limit=100`)).status, 200);
      const first = await t.get<Json>(`/v1/stories/${a.id}/${list}?limit=1`);
      const cursor = first.body.nextCursor as string;
      assert.ok(cursor);
      const tampered = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;
      for (const bad of [tampered, 'not-a-cursor', `${cursor}x`]) {
        const res = await t.get<Json>(`/v1/stories/${a.id}/${list}?cursor=${encodeURIComponent(bad)}`);
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 'INVALID_CURSOR');
      }
      const elsewhere = await t.get<Json>(`/v1/stories/${b.id}/${list}?cursor=${cursor}`);
      assert.equal(elsewhere.status, 400);
      assert.equal(elsewhere.body.code, 'INVALID_CURSOR');
    }
  });

  test('flags and challenges: a HIGH flag on a claim is a challenge', async () => {
    const story = await t.factory.story();
    const claimId = story.packet.claims[0]!.id;
    const low = await t.factory.flag(story.id, { severity: 'LOW', reason: 'typo' });
    const high = await t.factory.flag(story.id, { severity: 'HIGH', claimId, reason: 'the vote was 6-3' });
    const medium = await t.factory.flag(story.id, { severity: 'MEDIUM', claimId, reason: 'unclear' });
    const res = await t.get<Json>(`/v1/stories/${story.id}/flags`);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.items.map((f: Json) => [f.id, f.severity, f.claimId, f.challenge]),
      [
        [low, 'LOW', null, false],
        [high, 'HIGH', claimId, true],
        [medium, 'MEDIUM', claimId, false],
      ],
    );
    assert.deepEqual(Object.keys(res.body.items[0]).sort(), [
      'actorId',
      'challenge',
      'claimId',
      'createdAt',
      'id',
      'reason',
      'severity',
      'verified',
    ]);
  });

  test('consensus: the stored snapshot, or a neutral one with zero counts under the current thresholds', async () => {
    const neutral = await t.factory.story({ review: 'EMERGING' });
    const res = await t.get<Json>(`/v1/stories/${neutral.id}/consensus`);
    assert.equal(res.status, 200);
    assert.equal(res.body.source, 'neutral');
    assert.equal(res.body.packetHash, neutral.packetHash);
    assert.equal(res.body.currentPacket, true);
    assert.equal(res.body.computedAt, new Date(NOW).toISOString());
    assert.deepEqual(res.body.snapshot.attestations, { count: 0, weight: 0 });
    assert.deepEqual(res.body.snapshot.rewardVotes, { count: 0, up: 0, down: 0, weightUp: 0, weightDown: 0 });
    assert.equal(res.body.snapshot.reviewStatus, 'EMERGING');
    assert.equal(res.body.snapshot.graduation.requiredHumanAction, `graduate:${neutral.id}`);
    assert.deepEqual(res.body.snapshot.thresholds, {
      minAttestations: 3,
      contestedObjectionRatio: 0.4,
      minObjections: 2,
      graduationMinAttestations: 5,
    });

    const stored = await t.factory.story({ review: 'CLEAR' });
    const snapshot = {
      ...res.body.snapshot,
      storyId: stored.id,
      packetHash: stored.packetHash,
      attestations: { count: 3, weight: 4 },
      reviewStatus: 'CLEAR',
      graduation: { gateMet: false, requiredHumanAction: `graduate:${stored.id}`, humanActionRecorded: false },
      computedAt: '2026-03-10T11:40:00.000Z',
    };
    await t.factory.consensusSnapshot(stored, snapshot, '2026-03-10T11:40:00.000Z');
    const read = await t.get<Json>(`/v1/stories/${stored.id}/consensus`);
    assert.equal(read.body.source, 'stored');
    assert.deepEqual(read.body.snapshot, snapshot);
    await t.factory.revise(stored, { title: 'Changed after the snapshot' });
    const stale = await t.get<Json>(`/v1/stories/${stored.id}/consensus`);
    assert.equal(stale.body.currentPacket, false);
    assert.equal(stale.body.packetHash, stored.packetHash);
  });

  test('consensus thresholds follow the governance parameters', async () => {
    const local = await createReadsTestApp();
    try {
      await local.factory.setParameter('consensus.minAttestations', 7);
      const story = await local.factory.story();
      const res = await local.get<Json>(`/v1/stories/${story.id}/consensus`);
      assert.equal(res.body.snapshot.thresholds.minAttestations, 7);
    } finally {
      await local.close();
    }
  });

  test('machine room: current packet, reviews on it, counts on older packets, every proposal and the latest safety trace', async () => {
    const v1 = await t.factory.story();
    const old = await t.factory.review(v1, { kind: 'ATTESTATION' });
    await t.factory.review(v1, { kind: 'OBJECTION' });
    await t.factory.trace(v1, { decision: 'ALLOW', scannedAt: '2026-03-10T09:00:00.000Z' });
    const accepted = await t.factory.proposal(v1, {
      status: 'ACCEPTED',
      acceptVotes: 2,
      rejectVotes: 0,
      resultVersion: 2,
      createdAt: '2026-03-10T09:30:00.000Z',
      resolvedAt: '2026-03-10T10:00:00.000Z',
    });
    const v2 = await t.factory.revise(v1, { summary: 'A new summary' }, { proposalId: accepted });
    const claimId = v2.packet.claims[0]!.id;
    const att = await t.factory.review(v2, {
      kind: 'ATTESTATION',
      weight: 2,
      confidence: 0.9,
      note: 'checked the minutes',
      claimIds: [claimId],
      evidence: [{ url: 'https://example.org/x' }],
    });
    const obj = await t.factory.review(v2, { kind: 'OBJECTION', note: 'vote count differs' });
    const open = await t.factory.proposal(v2, { status: 'OPEN', acceptVotes: 1, rejectVotes: 1, createdAt: '2026-03-10T10:45:00.000Z' });
    await t.factory.trace(v2, { decision: 'ALLOW', scannedAt: '2026-03-10T10:30:00.000Z' });
    await t.factory.trace(v2, { decision: 'QUARANTINE', scannedAt: '2026-03-10T11:00:00.000Z' });

    const res = await t.get<Json>(`/v1/stories/${v1.id}/machine-room`);
    assert.equal(res.status, 200);
    assert.equal(res.body.version, 2);
    assert.equal(res.body.packetHash, v2.packetHash);
    assert.equal(res.body.packet.summary, 'A new summary');
    assert.deepEqual(
      res.body.attestations.map((r: Json) => r.id),
      [att],
    );
    assert.deepEqual(
      res.body.objections.map((r: Json) => r.id),
      [obj],
    );
    assert.ok(!res.body.attestations.some((r: Json) => r.id === old));
    assert.deepEqual(res.body.attestations[0], {
      id: att,
      botId: res.body.attestations[0].botId,
      verified: false,
      kind: 'ATTESTATION',
      weight: 2,
      confidence: 0.9,
      note: 'checked the minutes',
      claimIds: [claimId],
      evidence: [{ url: 'https://example.org/x' }],
      createdAt: new Date(NOW - HOUR_MS / 2).toISOString(),
    });
    assert.deepEqual(res.body.olderPacketReviews, { attestations: 1, objections: 1 });
    assert.deepEqual(
      res.body.revisionProposals.map((p: Json) => [p.id, p.status, p.votes, p.basePacketHash]),
      [
        [accepted, 'ACCEPTED', { accept: 2, reject: 0 }, v1.packetHash],
        [open, 'OPEN', { accept: 1, reject: 1 }, v2.packetHash],
      ],
    );
    assert.equal(res.body.revisionProposals[0].resultVersion, 2);
    assert.deepEqual(res.body.revisionThresholds, { acceptVotes: 2, rejectVotes: 2 });
    assert.equal(res.body.safetyTrace.decision, 'QUARANTINE');
    assert.equal(res.body.safetyTrace.scannedAt, '2026-03-10T11:00:00.000Z');
    assert.equal(res.body.safetyTrace.packetHash, v2.packetHash);
    assert.equal(res.body.consensus.source, 'neutral');
    assert.equal(res.body.consensus.packetHash, v2.packetHash);

    const bare = await t.factory.story();
    const empty = await t.get<Json>(`/v1/stories/${bare.id}/machine-room`);
    assert.equal(empty.body.safetyTrace, null);
    assert.deepEqual(empty.body.revisionProposals, []);
  });

  test('reward window: active only from publication until it closes', async () => {
    const closed = await t.factory.story({ publishedAt: new Date(NOW - 80 * HOUR_MS), rewardWindowEndsAt: new Date(NOW - 8 * HOUR_MS) });
    assert.equal((await t.get<Json>(`/v1/stories/${closed.id}`)).body.rewardWindow.active, false);
    const closingNow = await t.factory.story({ publishedAt: new Date(NOW - 72 * HOUR_MS), rewardWindowEndsAt: new Date(NOW) });
    assert.equal((await t.get<Json>(`/v1/stories/${closingNow.id}`)).body.rewardWindow.active, false);
    const open = await t.factory.story({ publishedAt: new Date(NOW), rewardWindowEndsAt: new Date(NOW + HOUR_MS) });
    assert.equal((await t.get<Json>(`/v1/stories/${open.id}`)).body.rewardWindow.active, true);
  });
});
