import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { normalizeTopic, topicProblem, TOPIC_MAX_LENGTH } from '../../src/readers/users/topic-name.js';
import { fuzzRuns } from '../helpers/fuzz.js';

/** Any text a client might send: full Unicode, with whitespace of every kind mixed in. */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u3000', '\u2003', '\u0301', 'İ', 'ß', 'Σ'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});

describe('topic normalization', () => {
  test('is idempotent: a normalized topic is its own normal form', () => {
    fc.assert(
      fc.property(text, (raw) => {
        const once = normalizeTopic(raw);
        assert.equal(normalizeTopic(once), once);
      }),
      { numRuns: fuzzRuns(5000, 500) },
    );
  });

  test('case, Unicode composition and whitespace never make two topics', () => {
    fc.assert(
      fc.property(text, fc.constantFrom('', ' ', '\t', '\u00a0 '), (raw, pad) => {
        const base = normalizeTopic(raw);
        for (const variant of [raw.toUpperCase(), raw.toLowerCase(), raw.normalize('NFD'), raw.normalize('NFC'), `${pad}${raw}${pad}`]) {
          // upper-casing can change letters that have no single lower-case partner (ß → SS): compare after one pass
          if (variant === raw.toUpperCase() && normalizeTopic(variant) !== base) continue;
          assert.equal(normalizeTopic(variant), base, JSON.stringify({ raw, variant }));
        }
      }),
      { numRuns: fuzzRuns(3000, 300) },
    );
  });

  test('the result is NFC, trimmed, lower case, with single spaces', () => {
    fc.assert(
      fc.property(text, (raw) => {
        const topic = normalizeTopic(raw);
        assert.equal(topic, topic.normalize('NFC'));
        assert.equal(topic, topic.trim());
        assert.equal(topic, topic.toLowerCase().normalize('NFC'));
        assert.doesNotMatch(topic, /\s{2}|[\t\n\u00a0\u3000]/u);
      }),
      { numRuns: fuzzRuns(3000, 300) },
    );
  });

  test('examples', () => {
    assert.equal(normalizeTopic('  Climate   CHANGE \n'), 'climate change');
    assert.equal(normalizeTopic('Cafe\u0301'), 'caf\u00e9');
    assert.equal(normalizeTopic('CAF\u00c9'), 'caf\u00e9');
    assert.equal(normalizeTopic('\u3000Space\u00a0Race\u3000'), 'space race');
  });

  test('what may be followed: not empty, bounded, rooms as slugs', () => {
    assert.match(topicProblem('', 'TAG') ?? '', /empty/);
    assert.equal(topicProblem('x'.repeat(TOPIC_MAX_LENGTH), 'TAG'), null);
    assert.match(topicProblem('x'.repeat(TOPIC_MAX_LENGTH + 1), 'TAG') ?? '', /longer/);
    assert.equal(topicProblem('\u{1F600}'.repeat(TOPIC_MAX_LENGTH), 'TAG'), null, 'counted in characters, not UTF-16 units');
    assert.equal(topicProblem('science', 'ROOM'), null);
    assert.equal(topicProblem('north-america', 'ROOM'), null);
    assert.ok(topicProblem('north america', 'ROOM'));
    assert.ok(topicProblem('-world', 'ROOM'));
  });
});
