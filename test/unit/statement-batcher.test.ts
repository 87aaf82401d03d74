import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { statementBatcher } from '../../src/platform/db/bulk/statement-batcher.js';

/** A batcher whose statements are held open until released, recording each batch it ran. */
function recording(maxBatch: number, maxInFlight: number) {
  const batches: string[][] = [];
  const open: (() => void)[] = [];
  let failNext: Error | undefined;
  const write = statementBatcher<string, string>({
    maxBatch,
    maxInFlight,
    key: (item) => item.split(':')[0]!,
    run: async (items) => {
      batches.push(items);
      const failure = failNext;
      failNext = undefined;
      await new Promise<void>((resolve) => open.push(resolve));
      if (failure) throw failure;
      return items.map((item) => `done ${item}`);
    },
  });
  // lets the released statements answer and the next batch leave (a few turns of the event loop)
  const releaseAll = async () => {
    while (open.length) open.shift()!();
    for (let i = 0; i < 5; i++) await nextTurn();
  };
  return { write, batches, open, releaseAll, failNextWith: (err: Error) => (failNext = err) };
}

describe('statementBatcher: one statement for the writes that arrive together', () => {
  test('a quiet write leaves alone on the next turn; writes that arrive while batches are in flight share the next', async () => {
    const b = recording(3, 1);
    const first = b.write('a');
    await nextTurn();
    assert.deepEqual(b.batches, [['a']]);
    const later = ['b', 'c', 'd', 'e'].map((item) => b.write(item));
    await nextTurn();
    assert.equal(b.batches.length, 1, 'no second batch while the first is in flight (maxInFlight 1)');
    await b.releaseAll();
    assert.deepEqual(b.batches, [['a'], ['b', 'c', 'd']], 'the waiting writes go together, at most maxBatch');
    await b.releaseAll();
    assert.deepEqual(b.batches, [['a'], ['b', 'c', 'd'], ['e']]);
    await b.releaseAll();
    assert.equal(await first, 'done a');
    assert.deepEqual(await Promise.all(later), ['done b', 'done c', 'done d', 'done e']);
  });

  test('writes of the same key never share a batch; up to maxInFlight batches run at once', async () => {
    const b = recording(10, 2);
    const all = ['x:1', 'y:1', 'x:2', 'z:1', 'x:3'].map((item) => b.write(item));
    await nextTurn();
    assert.deepEqual(b.batches, [['x:1', 'y:1', 'z:1'], ['x:2']]);
    await b.releaseAll();
    await b.releaseAll();
    assert.deepEqual(b.batches.at(-1), ['x:3']);
    await b.releaseAll();
    assert.deepEqual(await Promise.all(all), ['done x:1', 'done y:1', 'done x:2', 'done z:1', 'done x:3']);
  });

  test('a failed statement fails the writes it carried, and only those', async () => {
    const b = recording(2, 1);
    b.failNextWith(new Error('connection lost'));
    const outcome = (write: Promise<string>) => write.catch((err: Error) => `failed: ${err.message}`);
    const first = ['a', 'b'].map((item) => outcome(b.write(item)));
    await nextTurn();
    const second = outcome(b.write('c'));
    await b.releaseAll();
    await b.releaseAll();
    assert.deepEqual(await Promise.all([...first, second]), ['failed: connection lost', 'failed: connection lost', 'done c']);
    assert.deepEqual(b.batches, [['a', 'b'], ['c']]);
  });
});
