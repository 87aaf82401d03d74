import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Packet } from '../../src/newsroom/common/packet.js';
import { HARD_BLOCK_CATEGORIES, scanPacket, type SafetyDecision } from '../../src/newsroom/moderation/safety-scan.js';

function packet(overrides: Partial<Packet> = {}): Packet {
  return {
    room: 'world',
    lang: 'en',
    title: 'Harbour authority approves new ferry schedule',
    summary: 'The port authority voted to add two evening ferry crossings from next month.',
    body: 'The harbour authority approved an expanded ferry timetable on Tuesday after a public consultation.',
    claims: [{ id: 'c1', text: 'The authority approved two extra evening crossings.' }],
    sources: [{ url: 'https://example.org/ferry', title: 'Authority minutes', publisher: 'Harbour Authority' }],
    ...overrides,
  };
}

const matchedRules = (p: Packet) =>
  scanPacket(p)
    .rules.filter((r) => r.matched)
    .map((r) => r.id);

/** Per rule: its category and action, text it must catch, and near misses it must let through. */
const RULES: { id: string; category: string; action: 'BLOCK' | 'QUARANTINE'; hits: string[]; misses: string[] }[] = [
  {
    id: 'csam.minor-sexual',
    category: 'CHILD_SEXUAL_CONTENT',
    action: 'BLOCK',
    hits: ['Explicit images of a 12-year-old were shared', 'Nude photos of underage pupils'],
    misses: ['Children visited the harbour museum', 'The film was rated explicit for its language'],
  },
  {
    id: 'threat.first-person-intent',
    category: 'VIOLENT_THREAT',
    action: 'BLOCK',
    hits: ['I will kill the ferry captain', "We're going to bomb the terminal"],
    misses: ['Residents fear the storm will kill the crops', 'The captain said I am going to sail tomorrow'],
  },
  {
    id: 'threat.targeted-call',
    category: 'VIOLENT_THREAT',
    action: 'BLOCK',
    hits: ['Someone should shoot the mayor tomorrow', 'Go murder the journalist at home'],
    misses: ['Photographers will shoot the mayor for the annual portrait', 'Critics say the budget will kill them slowly'],
  },
  {
    id: 'doxxing.phone-number',
    category: 'DOXXING',
    action: 'BLOCK',
    hits: ['Call her on 555-123-4567', 'Her mobile is +1 (555) 123.4567'],
    misses: ['The ferry carried 1,234 passengers in 2025', 'Crossings rose from 555 to 1234 a week'],
  },
  {
    id: 'doxxing.street-address',
    category: 'DOXXING',
    action: 'BLOCK',
    hits: ['The inspector lives at 42 Elm Street', 'His home is 7 Old Harbour Road'],
    misses: ['The council met at 42 Elm Street', 'She lives near the harbour'],
  },
  {
    id: 'doxxing.government-id',
    category: 'DOXXING',
    action: 'BLOCK',
    hits: ['His SSN is 123-45-6789', 'passport number: X1234567'],
    misses: ['Passport rules changed this year', 'Route 123-45 was cancelled'],
  },
  {
    id: 'health.miracle-cure',
    category: 'UNVERIFIED_HEALTH_CLAIM',
    action: 'QUARANTINE',
    hits: ['A miracle cure sold at the pier', 'Sea salt cures cancer, the seller says'],
    misses: ['Researchers found no cure for cancer yet', 'A new clinic opens at the pier'],
  },
  {
    id: 'health.vaccine-misinformation',
    category: 'UNVERIFIED_HEALTH_CLAIM',
    action: 'QUARANTINE',
    hits: ['Vaccines cause autism, the leaflet claims', 'a vaccine causing infertility'],
    misses: ['Study finds vaccines do not cause autism', 'Vaccine uptake rose in the harbour towns'],
  },
  {
    id: 'violence.graphic-description',
    category: 'GRAPHIC_VIOLENCE',
    action: 'QUARANTINE',
    hits: ['The victim was dismembered', 'Graphic footage of the execution circulated'],
    misses: ['The council executed the budget plan', 'Footage of the ferry launch circulated'],
  },
];

describe('scanPacket', () => {
  test('an ordinary packet is ALLOW with every rule listed and none matched', () => {
    const result = scanPacket(packet());
    assert.equal(result.decision, 'ALLOW');
    assert.deepEqual(result.categories, []);
    assert.deepEqual(result.rules.map((r) => r.id).sort(), RULES.map((r) => r.id).sort(), 'the trace names every rule');
    assert.ok(result.rules.every((r) => !r.matched && r.fields.length === 0));
  });

  for (const rule of RULES) {
    test(`${rule.id}: ${rule.action} as ${rule.category} on a match, ALLOW on near misses`, () => {
      for (const text of rule.hits) {
        const result = scanPacket(packet({ body: text }));
        assert.equal(result.decision, rule.action, text);
        assert.deepEqual(matchedRules(packet({ body: text })), [rule.id], `only ${rule.id} matches: ${text}`);
        const trace = result.rules.find((r) => r.id === rule.id)!;
        assert.deepEqual([trace.category, trace.action, trace.fields], [rule.category, rule.action, ['body']]);
        assert.deepEqual(result.categories, [{ category: rule.category, action: rule.action, hardBlock: rule.action === 'BLOCK' }]);
      }
      for (const text of rule.misses) {
        assert.equal(scanPacket(packet({ body: text })).decision, 'ALLOW', text);
      }
    });
  }

  test('exactly CHILD_SEXUAL_CONTENT, VIOLENT_THREAT and DOXXING are hard-block categories', () => {
    assert.deepEqual([...HARD_BLOCK_CATEGORIES].sort(), ['CHILD_SEXUAL_CONTENT', 'DOXXING', 'VIOLENT_THREAT']);
  });

  test('the minor and sexual patterns must match the same field', () => {
    assert.equal(scanPacket(packet({ title: 'Underage pupils', body: 'explicit lyrics' })).decision, 'ALLOW');
    assert.equal(scanPacket(packet({ body: 'explicit lyrics sung to underage pupils' })).decision, 'BLOCK');
  });

  test('every text field is scanned and named: title, summary, body, each claim, each source title and publisher', () => {
    const hit = 'Sea salt cures cancer';
    const fields: [Partial<Packet>, string][] = [
      [{ title: hit }, 'title'],
      [{ summary: hit }, 'summary'],
      [{ body: hit }, 'body'],
      [
        {
          claims: [
            { id: 'a', text: 'fine' },
            { id: 'b', text: hit },
          ],
        },
        'claims/1',
      ],
      [{ sources: [{ url: 'https://example.org/a' }, { url: 'https://example.org/b', title: hit }] }, 'sources/1'],
      [{ sources: [{ url: 'https://example.org/a', publisher: hit }] }, 'sources/0'],
    ];
    for (const [overrides, field] of fields) {
      const rule = scanPacket(packet(overrides)).rules.find((r) => r.id === 'health.miracle-cure')!;
      assert.deepEqual(rule.fields, [field]);
    }
    // the url is not text the scan reads
    assert.equal(scanPacket(packet({ sources: [{ url: 'https://example.org/miracle-cure' }] })).decision, 'ALLOW');
  });

  test('BLOCK wins over QUARANTINE, and both categories are reported', () => {
    const result = scanPacket(packet({ title: 'Sea salt cures cancer', body: 'Call her on 555-123-4567' }));
    assert.equal(result.decision, 'BLOCK');
    assert.deepEqual(result.categories.map((c) => [c.category, c.action, c.hardBlock]).sort(), [
      ['DOXXING', 'BLOCK', true],
      ['UNVERIFIED_HEALTH_CLAIM', 'QUARANTINE', false],
    ]);
  });

  test('a category that several rules matched is reported once', () => {
    const result = scanPacket(packet({ body: 'She lives at 42 Elm Street, phone 555-123-4567' }));
    assert.deepEqual(result.categories, [{ category: 'DOXXING', action: 'BLOCK', hardBlock: true }]);
    assert.equal(result.rules.filter((r) => r.matched).length, 2);
  });

  const order: Record<SafetyDecision, number> = { ALLOW: 0, QUARANTINE: 1, BLOCK: 2 };
  const text = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom(...RULES.flatMap((r) => [...r.hits, ...r.misses])));

  test('property: the trace never echoes matched text (a phone number is blocked but not repeated)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[2-9]\d{2}-\d{3}-\d{4}$/), text, (phone, around) => {
        const result = scanPacket(packet({ body: `${around} call ${phone} now` }));
        assert.equal(result.decision, 'BLOCK');
        assert.ok(!JSON.stringify(result).includes(phone));
      }),
    );
  });

  test('property: more text (appended to a field, or another claim) never makes a packet safer', () => {
    fc.assert(
      fc.property(text, text, text, (body, extra, claim) => {
        const base = scanPacket(packet({ body })).decision;
        assert.ok(order[scanPacket(packet({ body: `${body} ${extra}` })).decision] >= order[base]);
        assert.ok(
          order[
            scanPacket(
              packet({
                body,
                claims: [
                  { id: 'c1', text: 'fine' },
                  { id: 'c2', text: claim },
                ],
              }),
            ).decision
          ] >= order[base],
        );
      }),
    );
  });

  test('property: the same packet always gets the same trace', () => {
    fc.assert(
      fc.property(text, text, (title, body) => {
        assert.deepEqual(scanPacket(packet({ title, body })), scanPacket(packet({ title, body })));
      }),
    );
  });
});
