import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { payoutBatches, type PayoutStandings, type PublishedContribution } from '../../src/rewards/settlements/payout-rows.js';
import { fuzzRuns } from '../helpers/fuzz.js';

const STORIES = ['st_a', 'st_b', 'st_c'];
const OWNERS = [null, 'hu_1', 'hu_2', 'hu_3'];
const BOTS = ['bot_1', 'bot_2'];

const contribution = fc.record({
  story: fc.integer({ min: 0, max: STORIES.length - 1 }),
  bot: fc.boolean(),
  who: fc.integer({ min: 0, max: BOTS.length - 1 }),
  owner: fc.integer({ min: 0, max: OWNERS.length - 1 }),
  amount: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 20n })),
});

/** The standings of the property: hu_1 has a verified wallet, hu_2 none, hu_3 is frozen; st_c is frozen; bot_2 is held. */
const standings: PayoutStandings = {
  recipients: new Map([
    ['hu_1', { id: 're_1', wallet_verified_at: new Date(0), frozen_at: null }],
    ['hu_2', { id: 're_2', wallet_verified_at: null, frozen_at: null }],
    ['hu_3', { id: 're_3', wallet_verified_at: new Date(0), frozen_at: new Date(0) }],
  ]),
  frozenStories: new Set(['st_c']),
  held: (_kind, id) => id === 'bot_2',
};

/** The state the standings above give a payout, by the rule of docs/rewards.md "Payout states". */
function expectedState(c: PublishedContribution): { status: string; reason: string | null } {
  if (c.storyId === 'st_c') return { status: 'FROZEN', reason: 'STORY_FROZEN' };
  if (c.owner === 'hu_3') return { status: 'FROZEN', reason: 'RECIPIENT_FROZEN' };
  if (c.beneficiaryId === 'bot_2') return { status: 'REVIEW', reason: 'CARTEL_CLUSTER' };
  if (c.owner === 'hu_1') return { status: 'PAYABLE', reason: null };
  return { status: 'PENDING_RECIPIENT', reason: 'NO_VERIFIED_WALLET' };
}

describe('payout rows', () => {
  test('read batch by batch, the rows are each non-zero share once, with its own seq, person and state, whatever the batch size', () => {
    fc.assert(
      fc.property(fc.array(contribution, { maxLength: 60 }), fc.integer({ min: 1, max: 7 }), (drawn, size) => {
        const contributions: PublishedContribution[] = drawn.map((d, i) => {
          const owner = OWNERS[d.owner]!;
          return {
            storyId: STORIES[d.story]!,
            role: d.bot ? 'FACT_CHECK' : 'RISK',
            beneficiaryKind: d.bot ? 'BOT' : 'HUMAN',
            beneficiaryId: d.bot ? BOTS[d.who]! : (owner ?? `hu_flagger_${i}`),
            weight: String(i + 1),
            units: '1',
            storyVoteWeight: '1',
            owner: d.bot ? owner : (owner ?? `hu_flagger_${i}`),
          };
        });
        const amounts = drawn.map((d) => d.amount);
        // as the run reads them: each row copied before the next batch is asked for
        const read: Record<string, unknown>[] = [];
        let batches = 0;
        for (const batch of payoutBatches(contributions, amounts, standings, 1000n, size)) {
          batches++;
          assert.ok(batch.length >= 1 && batch.length <= size);
          for (const row of batch) read.push({ ...row });
        }
        const expected = contributions.flatMap((c, i) => {
          if (amounts[i] === 0n) return [];
          const recipient = c.owner ? standings.recipients.get(c.owner) : undefined;
          const { status, reason } = expectedState(c);
          return [
            {
              seq: 1000 + i,
              story_id: c.storyId,
              role: c.role,
              beneficiary_kind: c.beneficiaryKind,
              beneficiary_id: c.beneficiaryId,
              linked_human_id: c.owner,
              recipient_id: recipient?.id ?? null,
              weight: c.weight,
              amount_base: amounts[i]!.toString(),
              status,
              status_reason: reason,
            },
          ];
        });
        assert.equal(batches, Math.ceil(expected.length / size));
        assert.deepEqual(
          read.map(({ id: _id, ...rest }) => rest),
          expected,
        );
        // ids: one settlement's prefix and a counter, distinct and ascending
        const ids = read.map((r) => r.id as string);
        assert.equal(new Set(ids).size, ids.length);
        assert.deepEqual([...ids].sort(), ids);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });
});
