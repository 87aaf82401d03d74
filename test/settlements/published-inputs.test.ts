import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { test } from 'node:test';
import fc from 'fast-check';
import { compressedInputs, storedInputs } from '../../src/rewards/settlements/published-inputs.js';
import type { PublishedContribution } from '../../src/rewards/settlements/payout-rows.js';
import { fuzzRuns } from '../helpers/fuzz.js';

const text = fc.oneof(fc.string(), fc.constantFrom('st_1', 'bot_1', 'FACT_CHECK', '1', ''), fc.string({ unit: 'grapheme', maxLength: 8 }));
const contribution: fc.Arbitrary<PublishedContribution> = fc.record({
  storyId: text,
  role: fc.constantFrom('WRITER', 'FACT_CHECK', 'RISK', 'SOURCE_DIVERSITY'),
  beneficiaryKind: fc.constantFrom('BOT', 'HUMAN'),
  beneficiaryId: text,
  weight: text,
  units: text,
  storyVoteWeight: text,
  owner: fc.option(text, { nil: null }),
});
const head = fc.record(
  { policyVersion: fc.integer(), seed: fc.string(), poolBase: fc.string(), stories: fc.array(fc.jsonValue(), { maxLength: 3 }) },
  { requiredKeys: [] },
);

/** What is stored reads back as the very inputs: the same JSON text, keys in the same order. */
test('packed inputs read back as exactly the inputs that were packed', async () => {
  await fc.assert(
    fc.asyncProperty(head, fc.array(contribution, { maxLength: 40 }), async (h, contributions) => {
      const inputs = { ...h, contributions };
      const stored = await compressedInputs(inputs);
      assert.equal(JSON.stringify(await storedInputs({ inputs_gzip: stored })), JSON.stringify(inputs));
    }),
    { numRuns: fuzzRuns(200) },
  );
  // more than two slices of 50,000, texts repeated as a run repeats them
  const many = {
    seed: 's',
    contributions: Array.from({ length: 123_456 }, (_, i) => ({
      storyId: `st_${i % 5_000}`,
      role: 'FACT_CHECK' as const,
      beneficiaryKind: 'BOT' as const,
      beneficiaryId: `bot_${i % 997}`,
      weight: String(i % 13),
      units: '1',
      storyVoteWeight: String(i % 13),
      owner: i % 3 ? `h_${i % 997}` : null,
    })),
  };
  const stored = await compressedInputs(many);
  assert.equal(JSON.stringify(await storedInputs({ inputs_gzip: stored })), JSON.stringify(many));
  // each repeated text once: far smaller than its JSON
  assert.ok(gunzipSync(stored).length < JSON.stringify(many).length / 4);
  const none = await compressedInputs({ contributions: [] });
  assert.deepEqual(await storedInputs({ inputs_gzip: none }), { contributions: [] });
});
