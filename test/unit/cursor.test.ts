import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { createCursorCodec, cursorKey } from '../../src/platform/cursor.js';
import { AppError } from '../../src/platform/errors.js';

const codec = createCursorCodec(cursorKey(undefined, 'test-human-signing-secret'));
const { decode: decodeCursor, encode: encodeCursor } = codec;

const isInvalidCursor = (err: unknown) => err instanceof AppError && err.status === 400 && err.code === 'INVALID_CURSOR';

describe('cursor codec', () => {
  test('round-trips doubles exactly, strings, integers and microsecond timestamps', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string({ minLength: 1, maxLength: 60 }),
        fc.nat(),
        (value, id, seq) => {
          const [v, i] = decodeCursor('k', encodeCursor('k', [value, id]), ['number', 'string']);
          assert.ok(Object.is(v, value) || (value === 0 && v === 0), `${value} came back as ${String(v)}`);
          assert.equal(i, id);
          assert.deepEqual(decodeCursor('s', encodeCursor('s', [seq]), ['integer']), [seq]);
        },
      ),
    );
    const ts = '2026-03-01T10:00:00.123456Z';
    assert.deepEqual(decodeCursor('t', encodeCursor('t', [ts, 'st_1']), ['timestamp', 'string']), [ts, 'st_1']);
  });

  test('a cursor is URL-safe text', () => {
    assert.match(encodeCursor('feed:trending', [1 / 3, 'st_ä/+=?&']), /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  test('any edit to a cursor is INVALID_CURSOR', () => {
    const cursor = encodeCursor('feed:recent', ['2026-03-01T10:00:00.123456Z', 'st_abc']);
    fc.assert(
      fc.property(
        fc.nat({ max: cursor.length - 1 }),
        fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'),
        (index, char) => {
          fc.pre(cursor[index] !== char);
          const edited = cursor.slice(0, index) + char + cursor.slice(index + 1);
          assert.throws(() => decodeCursor('feed:recent', edited, ['timestamp', 'string']), isInvalidCursor);
        },
      ),
    );
  });

  test('garbage never escapes as anything but INVALID_CURSOR', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (text) => {
        assert.throws(() => decodeCursor('ledger:events', text, ['integer']), isInvalidCursor);
      }),
    );
  });

  test('a cursor of another listing or mode, or with values of the wrong type, is INVALID_CURSOR', () => {
    const trending = encodeCursor('feed:trending', [1.5, 'st_a']);
    assert.throws(() => decodeCursor('feed:recent', trending, ['timestamp', 'string']), isInvalidCursor);
    assert.throws(
      () => decodeCursor('feed:trending', encodeCursor('feed:trending', ['1.5', 'st_a']), ['number', 'string']),
      isInvalidCursor,
    );
    assert.throws(() => decodeCursor('ledger:events', encodeCursor('ledger:events', [-1]), ['integer']), isInvalidCursor);
    assert.throws(() => decodeCursor('ledger:events', encodeCursor('ledger:events', [1.5]), ['integer']), isInvalidCursor);
    assert.throws(() => decodeCursor('ledger:events', encodeCursor('ledger:events', [1, 2]), ['integer']), isInvalidCursor);
    assert.throws(() => decodeCursor('t', encodeCursor('t', ['2026-03-01T10:00:00Z', 'x']), ['timestamp', 'string']), isInvalidCursor);
    assert.throws(() => decodeCursor('t', 'x'.repeat(5000), ['integer']), isInvalidCursor);
    for (const bad of [
      '2026-02-30T10:00:00.000000Z',
      '0000-01-01T00:00:00.000000Z',
      '2026-13-01T00:00:00.000000Z',
      '2026-01-01T24:00:00.000000Z',
    ]) {
      assert.throws(() => decodeCursor('t', encodeCursor('t', [bad, 'x']), ['timestamp', 'string']), isInvalidCursor, bad);
    }
    assert.throws(() => decodeCursor('t', encodeCursor('t', [1, 'st_\u0000']), ['number', 'string']), isInvalidCursor);
  });

  test('a cursor checked with an unkeyed hash, or with another key, is INVALID_CURSOR (defect: anyone could forge one)', () => {
    const payload = Buffer.from(JSON.stringify(['search:q', 1e308, 'st_1', '2026-03-01T10:00:00.123456Z', 'st_1'])).toString('base64url');
    const unkeyed = `${payload}.${createHash('sha256').update(`newsroom-cursor-v1:${payload}`).digest('base64url').slice(0, 16)}`;
    assert.throws(() => decodeCursor('search:q', unkeyed, ['real', 'string', 'timestamp', 'string']), isInvalidCursor);
    const other = createCursorCodec(cursorKey(undefined, 'another-secret'));
    assert.throws(
      () => decodeCursor('feed:recent', other.encode('feed:recent', ['2026-03-01T10:00:00.123456Z', 'st_1']), ['timestamp', 'string']),
      isInvalidCursor,
    );
    assert.equal(
      createCursorCodec(cursorKey('explicit', 'x')).encode('k', [1]),
      createCursorCodec(cursorKey('explicit', 'y')).encode('k', [1]),
    );
  });

  test('a rank outside the range of a PostgreSQL real is INVALID_CURSOR even when correctly signed', () => {
    for (const rank of [1e308, -1e39, 3.5e38]) {
      assert.throws(() => decodeCursor('r', encodeCursor('r', [rank]), ['real']), isInvalidCursor, String(rank));
    }
    assert.deepEqual(decodeCursor('r', encodeCursor('r', [0.25]), ['real']), [0.25]);
  });

  test('int8 sequences travel as decimal strings, exact past 2^53; anything else is INVALID_CURSOR', () => {
    for (const seq of ['0', '9007199254740993', '9223372036854775807'])
      assert.deepEqual(decodeCursor('s', encodeCursor('s', [seq]), ['int8']), [seq]);
    for (const bad of ['9223372036854775808', '-1', '01', '1e3', 7]) {
      assert.throws(() => decodeCursor('s', encodeCursor('s', [bad]), ['int8']), isInvalidCursor, String(bad));
    }
  });
});
