import { Type, type NumberOptions, type TSchema, type TString } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler, preValidationAsyncHookHandler } from 'fastify';
import { numberText } from './json-body.js';
import { hookList } from './route-hooks.js';

/**
 * Members read as exact decimals (amounts, rates): never through a double. A schema built with DecimalBody or
 * DecimalQuery carries the mark below; for each route that has such members, the hooks registered by
 * registerDecimalInputs hand the handler the member's decimal text as it was sent:
 * - a body member may be a JSON number (read from its own digits, request.inexactNumbers) or a decimal string;
 * - a query parameter is its text, which validation already held to plain decimal digits (validation.ts).
 * The service then converts the text exactly (e.g. settlements/money.ts toBaseUnits).
 */
export const DECIMAL_INPUT = 'x-exact-decimal';

/** Plain decimal digits: no sign, exponent, spaces or leading zeros (`0.5`, `1000`, `1000.25`). */
export const UNSIGNED_DECIMAL = '^(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$';

/**
 * A body member given as a JSON number or a decimal string; the handler receives its decimal text (typed as a
 * string, also for the route type provider, which reads TypeBox types structurally).
 */
export function DecimalBody(options: NumberOptions & { description: string }) {
  const { description, ...limits } = options;
  return Type.Unsafe<string>({
    anyOf: [Type.Number(limits), Type.String({ pattern: UNSIGNED_DECIMAL, maxLength: 100 })],
    description: `${description}; a JSON number, read from its digits, or the same decimal as a string`,
    [DECIMAL_INPUT]: true,
  }) as unknown as TString;
}

/** A query parameter documented and validated as a number; the handler receives its decimal text. */
export function DecimalQuery(options: NumberOptions) {
  return Type.Unsafe<string>({ ...Type.Number(options), [DECIMAL_INPUT]: true }) as unknown as TString;
}

type Schema = { properties?: Record<string, Schema>; [DECIMAL_INPUT]?: boolean };

/** The marked members of an object schema (nested objects included), each as its keys from the top. */
function markedMembers(schema: unknown, keys: string[] = []): string[][] {
  const properties = (schema as Schema | undefined)?.properties;
  if (!properties) return [];
  return Object.entries(properties).flatMap(([key, property]) =>
    property[DECIMAL_INPUT] ? [[...keys, key]] : markedMembers(property, [...keys, key]),
  );
}

/** A marked query parameter's text, kept before validation coerces it to a number. */
const queryTexts = new WeakMap<FastifyRequest, Map<string, string>>();

/** Registered before the routes: adds the hooks to each route whose body or query schema has a marked member. */
export function registerDecimalInputs(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const body = markedMembers(route.schema?.body as TSchema | undefined);
    const query = markedMembers(route.schema?.querystring as TSchema | undefined).map(([name]) => name!);
    if (!body.length && !query.length) return;

    if (query.length) {
      const keep: preValidationAsyncHookHandler = async (request) => {
        const q = request.query as Record<string, unknown>;
        const texts = new Map<string, string>();
        for (const name of query) if (typeof q[name] === 'string') texts.set(name, q[name]);
        queryTexts.set(request, texts);
      };
      route.preValidation = [...hookList(route.preValidation), keep];
    }

    const exact: preHandlerAsyncHookHandler = async (request) => {
      const q = request.query as Record<string, unknown>;
      const texts = queryTexts.get(request);
      for (const name of query) if (texts?.has(name)) q[name] = texts.get(name);
      for (const keys of body) {
        let parent = request.body as Record<string, unknown> | undefined;
        for (const key of keys.slice(0, -1)) parent = parent?.[key] as Record<string, unknown> | undefined;
        const key = keys[keys.length - 1]!;
        const value = parent?.[key];
        if (typeof value === 'number') parent![key] = numberText(value, keys, request.inexactNumbers);
      }
    };
    route.preHandler = [exact, ...hookList(route.preHandler)];
  });
}
