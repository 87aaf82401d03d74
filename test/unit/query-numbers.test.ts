import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { createValidatorCompiler } from '../../src/platform/validation.js';

/**
 * Numbers in query strings and paths are decimal digits (src/platform/validation.ts), whatever the route: the
 * rule comes from the schema's number and integer properties, before Ajv's coercion would read `0x10` as 16.
 */

const compile = createValidatorCompiler();
type Validate = ((data: unknown) => boolean) & { errors?: { instancePath: string; keyword: string }[] | null };

const schema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  amount: Type.Optional(Type.Number()),
  either: Type.Optional(Type.Union([Type.Integer(), Type.Literal('all')])),
  ids: Type.Optional(Type.Array(Type.Integer())),
  name: Type.Optional(Type.String()),
});
const query = compile({ schema, httpPart: 'querystring', method: 'GET', url: '/x' }) as unknown as Validate;
const params = compile({ schema, httpPart: 'params', method: 'GET', url: '/x' }) as unknown as Validate;

function refused(validate: Validate, data: Record<string, unknown>, name: string): boolean {
  return !validate({ ...data }) && (validate.errors ?? []).some((e) => e.instancePath === `/${name}` && e.keyword === 'decimal');
}

const NOT_DECIMAL = [
  '0x10',
  '0X10',
  '1e3',
  '1E3',
  ' 12',
  '12 ',
  '\t1',
  'Infinity',
  '-Infinity',
  '0b1',
  '0o7',
  '+5',
  '.5',
  '5.',
  '-',
  '1_000',
];

describe('query and path numbers are decimal digits only', () => {
  test('what Number() reads but is not written in decimal digits is refused, naming the parameter', () => {
    for (const validate of [query, params]) {
      for (const text of NOT_DECIMAL) {
        assert.ok(refused(validate, { limit: text }, 'limit'), `limit=${JSON.stringify(text)}`);
        assert.ok(refused(validate, { amount: text }, 'amount'), `amount=${JSON.stringify(text)}`);
        // a union with text holds to the rule only what Number() would read as a number; the rest fails the union
        if (Number.isNaN(Number(text))) assert.equal(validate({ either: text }), false, `either=${JSON.stringify(text)}`);
        else assert.ok(refused(validate, { either: text }, 'either'), `either=${JSON.stringify(text)}`);
        assert.ok(refused(validate, { ids: ['1', text] }, 'ids'), `ids=${JSON.stringify(text)}`);
      }
    }
    assert.ok(refused(query, { limit: '5.0' }, 'limit'), 'an integer takes no fraction');
  });

  test('decimal digits are coerced and checked as before; text alternatives and strings are untouched', () => {
    const data: Record<string, unknown> = { limit: '20', amount: '-0.25', either: 'all', ids: ['1', '02'], name: '0x10' };
    assert.equal(query(data), true, JSON.stringify(query.errors));
    assert.deepEqual(data, { limit: 20, amount: -0.25, either: 'all', ids: [1, 2], name: '0x10' }, 'leading zeros are decimal digits too');
    assert.equal(query({ limit: '101' }), false);
    assert.equal(query({ either: 'none' }), false);
  });

  test('any integer written in decimal digits passes the rule; any other spelling of it is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.constantFrom('', '+', ' ', '0x'), (n, prefix) => {
        const plain: Record<string, unknown> = { limit: String(n) };
        if (!query(plain) || plain.limit !== n) return false;
        const text = prefix === '0x' ? `0x${n.toString(16)}` : `${prefix}${n}`;
        return prefix === '' || refused(query, { limit: text }, 'limit');
      }),
      { numRuns: 200 },
    );
  });
});
