import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { test } from 'node:test';
import fc from 'fast-check';
import { compressedInputs } from '../../src/rewards/settlements/published-inputs.js';
import { fuzzRuns } from '../helpers/fuzz.js';

/** The published inputs, serialized a slice of contributions at a time, are the JSON of the whole object. */
test('compressed inputs unzip to exactly JSON.stringify of the inputs, across slice boundaries', async () => {
  const contribution = fc.record({ storyId: fc.string(), weight: fc.string(), owner: fc.option(fc.string(), { nil: null }) });
  const head = fc.record(
    { seed: fc.string(), poolBase: fc.string(), note: fc.constantFrom(undefined, 'x'), nested: fc.jsonValue() },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(head, fc.array(contribution, { maxLength: 30 }), async (h, contributions) => {
      const inputs = { ...h, contributions };
      assert.equal(gunzipSync(await compressedInputs(inputs)).toString('utf8'), JSON.stringify(inputs));
    }),
    { numRuns: fuzzRuns(200) },
  );
  // more than two slices of 5,000
  const many = { seed: 's', contributions: Array.from({ length: 12_345 }, (_, i) => ({ storyId: `st_${i}`, weight: String(i) })) };
  assert.equal(gunzipSync(await compressedInputs(many)).toString('utf8'), JSON.stringify(many));
  assert.equal(gunzipSync(await compressedInputs({ contributions: [] })).toString('utf8'), '{"contributions":[]}');
});
