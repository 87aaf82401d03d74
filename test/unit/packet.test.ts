import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { canonicalJson } from '../../sdk/canonical-json.js';
import { claimsText, normalizePacket, packetHash, type PacketInput } from '../../src/newsroom/common/packet.js';

const input = (overrides: Partial<PacketInput> = {}): PacketInput => ({
  room: 'world',
  lang: 'en',
  title: 'Harbour authority approves new ferry schedule',
  summary: 'Two evening crossings from next month.',
  body: 'The harbour authority approved an expanded ferry timetable.',
  claims: [{ text: 'Two extra evening crossings.' }, { text: 'The change starts next month.' }],
  sources: [{ url: 'https://example.org/ferry', title: 'Authority minutes', publisher: 'Harbour Authority' }],
  ...overrides,
});

/** The error normalizePacket throws: a 400 naming the offending path. */
const refusedAt = (path: string) => (err: unknown) => {
  const e = err as { status?: number; details?: { path?: string }[] };
  assert.equal(e.status, 400);
  assert.deepEqual(
    e.details?.map((d) => d.path),
    [path],
  );
  return true;
};

describe('normalizePacket', () => {
  test('a claim without an id gets cl_ + 20 hex, the same for the same packet', () => {
    const a = normalizePacket(input());
    const b = normalizePacket(input());
    for (const claim of a.claims) assert.match(claim.id, /^cl_[0-9a-f]{20}$/);
    assert.deepEqual(a, b);
    assert.notEqual(a.claims[0]!.id, a.claims[1]!.id);
  });

  test('a derived id is SHA-256 of the canonical packet (claims as their texts) and the claim position', () => {
    const raw = input();
    const seed = canonicalJson({ ...raw, claims: raw.claims.map((c) => c.text) });
    const expected = raw.claims.map((_, i) => `cl_${createHash('sha256').update(`${seed}:${i}`).digest('hex').slice(0, 20)}`);
    assert.deepEqual(
      normalizePacket(raw).claims.map((c) => c.id),
      expected,
    );
  });

  test('derived ids depend on the claim position and on the whole packet', () => {
    const same = normalizePacket(input({ claims: [{ text: 'x' }, { text: 'x' }] }));
    assert.notEqual(same.claims[0]!.id, same.claims[1]!.id, 'the same text twice is two claims');
    const base = normalizePacket(input()).claims[0]!.id;
    assert.notEqual(normalizePacket(input({ title: 'Another title' })).claims[0]!.id, base);
    assert.notEqual(normalizePacket(input({ claims: [{ text: 'Two extra evening crossings.' }] })).claims[0]!.id, base);
  });

  test('supplied claim ids are kept, also next to derived ones', () => {
    const p = normalizePacket(input({ claims: [{ id: 'mine', text: 'a' }, { text: 'b' }] }));
    assert.equal(p.claims[0]!.id, 'mine');
    assert.match(p.claims[1]!.id, /^cl_[0-9a-f]{20}$/);
  });

  test('a duplicate claim id is refused at its path', () => {
    assert.throws(
      () => normalizePacket(input({ claims: [{ id: 'x', text: 'a' }, { text: 'b' }, { id: 'x', text: 'c' }] })),
      refusedAt('/claims/2/id'),
    );
  });

  test('a duplicate source url is refused at its path', () => {
    const sources = [{ url: 'https://example.org/a' }, { url: 'https://example.org/b' }, { url: 'https://example.org/a', title: 'again' }];
    assert.throws(() => normalizePacket(input({ sources })), refusedAt('/sources/2/url'));
  });

  test('sources keep url, title and publisher only, absent ones left out; unknown fields are dropped', () => {
    const p = normalizePacket({
      ...input({ sources: [{ url: 'https://example.org/a' }, { url: 'https://example.org/b', publisher: 'P' }] }),
      extra: 1,
    } as PacketInput);
    assert.deepEqual(p.sources, [{ url: 'https://example.org/a' }, { url: 'https://example.org/b', publisher: 'P' }]);
    assert.ok(!('title' in p.sources[0]!));
    assert.deepEqual(Object.keys(p).sort(), ['body', 'claims', 'lang', 'room', 'sources', 'summary', 'title']);
  });

  test('claimsText joins the claim texts, one a line', () => {
    assert.equal(claimsText(normalizePacket(input())), 'Two extra evening crossings.\nThe change starts next month.');
  });
});

describe('packetHash', () => {
  test('is the lowercase hex SHA-256 of the canonical JSON of the normalized packet (SDK canonicalization)', () => {
    const p = normalizePacket(input());
    assert.equal(packetHash(p), createHash('sha256').update(canonicalJson(p)).digest('hex'));
    assert.match(packetHash(p), /^[0-9a-f]{64}$/);
  });

  test('pinned vector: claim id derivation and hash do not drift', () => {
    const p = normalizePacket(input());
    assert.deepEqual(
      p.claims.map((c) => c.id),
      ['cl_36a1c49933ce5c74c402', 'cl_c06f50659c2dcabbc5ac'],
    );
    assert.equal(packetHash(p), '146a78b1d4ebf8fff585f84812e5fe19b3fa65dc265d29770653eed52d2917df');
  });

  test('every field is covered: changing any one changes the hash', () => {
    const base = packetHash(normalizePacket(input()));
    const changes: Partial<PacketInput>[] = [
      { room: 'local' },
      { lang: 'fr' },
      { title: 'Harbour authority approves new ferry schedule.' },
      { summary: 'x' },
      { body: 'x' },
      { claims: [{ text: 'Two extra evening crossings.' }] },
      { claims: [{ id: 'c1', text: 'Two extra evening crossings.' }, { text: 'The change starts next month.' }] },
      { sources: [] },
      { sources: [{ url: 'https://example.org/ferry', title: 'Authority minutes' }] },
    ];
    const hashes = changes.map((c) => packetHash(normalizePacket(input(c))));
    for (const h of hashes) assert.notEqual(h, base);
    assert.equal(new Set(hashes).size, hashes.length);
  });

  const text = fc.string({ maxLength: 30, unit: 'grapheme' });
  const packetArb = fc.record({
    room: fc.stringMatching(/^[a-z]{1,8}$/),
    lang: fc.constantFrom('en', 'fr', 'zh-Hans'),
    title: text,
    summary: text,
    body: text,
    claims: fc.array(
      fc.record({ id: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/), { nil: undefined }), text }, { requiredKeys: ['text'] }),
      { maxLength: 5 },
    ),
    sources: fc.uniqueArray(fc.record({ url: fc.webUrl(), title: text, publisher: text }, { requiredKeys: ['url'] }), {
      maxLength: 4,
      selector: (s) => s.url,
    }),
  });

  test('property: normalizing is idempotent and the input key order never changes the hash', () => {
    fc.assert(
      fc.property(packetArb, (raw) => {
        const claimIds = raw.claims.map((c) => c.id).filter((id) => id !== undefined);
        fc.pre(new Set(claimIds).size === claimIds.length);
        const p = normalizePacket(raw as PacketInput);
        assert.deepEqual(normalizePacket(p), p);
        const reversed = Object.fromEntries(Object.entries(raw).reverse()) as unknown as PacketInput;
        assert.equal(packetHash(normalizePacket(reversed)), packetHash(p));
      }),
      { numRuns: 200 },
    );
  });
});
