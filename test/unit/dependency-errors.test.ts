import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dependencyUnavailable } from '../../src/platform/dependency-errors.js';
import { normalizeError } from '../../src/platform/error-handler.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('an unreachable PostgreSQL or Redis answers 503, not 500', () => {
  test('node-postgres: refused, terminated, shutting down, starting up, pool connect timeout', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      new Error('Connection terminated unexpectedly'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
    ]) {
      const mapped = normalizeError(error);
      assert.equal(mapped.status, 503, error.message);
      assert.equal(mapped.code, 'DATABASE_UNAVAILABLE');
      assert.equal(mapped.retryAfterSeconds, 2);
    }
  });

  test('ioredis: a command given up while disconnected, or cut by a closing connection', () => {
    const gaveUp = new Error('Reached the max retries per request limit (which is 2).');
    gaveUp.name = 'MaxRetriesPerRequestError';
    for (const error of [gaveUp, new Error('Connection is closed.')]) {
      const mapped = normalizeError(error);
      assert.equal(mapped.status, 503);
      assert.equal(mapped.code, 'REDIS_UNAVAILABLE');
    }
  });

  test('anything else stays an internal error (a constraint violation, a bug)', () => {
    assert.equal(dependencyUnavailable(withCode('duplicate key value violates unique constraint', '23505')), null);
    assert.equal(dependencyUnavailable(new TypeError('x is undefined')), null);
    assert.equal(dependencyUnavailable('a string'), null);
    assert.equal(normalizeError(new TypeError('x is undefined')).code, 'INTERNAL_ERROR');
  });
});
