import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';

/**
 * Two Ajv instances: bodies are validated strictly as sent (no coercion, unknown properties rejected by
 * the schemas' additionalProperties: false, never silently removed); query strings and params are text,
 * so they are coerced to the schema's types.
 */
function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, removeAdditional: false, ...options });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

/** NUL, or a UTF-16 surrogate without its pair (JSON can carry both as `\u` escapes). */
// eslint-disable-next-line no-control-regex -- matching NUL is the point: PostgreSQL text cannot store it
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Where the first string (or object key) PostgreSQL cannot store is, as a JSON pointer: text and jsonb refuse
 * NUL, and jsonb refuses an unpaired surrogate escape. Such input is refused as invalid (400) before it
 * reaches a query (where it was a 500).
 */
function unstorableAt(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path || '/' : undefined;
  if (value === null || typeof value !== 'object' || depth > 100) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const at = unstorableAt(value[i], `${path}/${i}`, depth + 1);
      if (at !== undefined) return at;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const pointer = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (UNSTORABLE.test(key)) return pointer;
    const at = unstorableAt(item, pointer, depth + 1);
    if (at !== undefined) return at;
  }
  return undefined;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/** Runs `validate`, then refuses any string PostgreSQL cannot store with an Ajv-shaped error (400 VALIDATION_FAILED). */
function refusingUnstorable(validate: Validate): Validate {
  const wrapped = ((data: unknown) => {
    const ok = validate(data);
    wrapped.errors = validate.errors;
    if (!ok) return false;
    const at = unstorableAt(data);
    if (at === undefined) return true;
    wrapped.errors = [
      {
        instancePath: at === '/' ? '' : at,
        schemaPath: '#',
        keyword: 'storableText',
        params: {},
        message: 'must not contain NUL (U+0000) or an unpaired surrogate',
      },
    ];
    return false;
  }) as Validate;
  wrapped.errors = null;
  return wrapped;
}

/**
 * How a number is written in a query string or a path: decimal digits with an optional minus sign and, for a
 * number that is not an integer, a fraction. No plus sign, exponent, leading zero, space, `0x`/`0o`/`0b`
 * prefix, `Infinity` or `NaN`, all of which JavaScript's Number() (and so Ajv's coercion) would read.
 */
const DECIMAL_INTEGER = /^-?[0-9]+$/;
const DECIMAL_NUMBER = /^-?[0-9]+(?:\.[0-9]+)?$/;

type NumericKind = 'integer' | 'number';
type PropertySchema = { type?: unknown; anyOf?: PropertySchema[]; oneOf?: PropertySchema[]; items?: PropertySchema };

/** Whether a property takes a number (alone or among other types), and which kind; arrays answer for their items. */
function numericKind(schema: PropertySchema | undefined): { kind: NumericKind; only: boolean } | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t !== undefined);
  if (types.includes('array')) return numericKind(schema.items);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const kinds = alternatives.map(numericKind);
    if (!kinds.some(Boolean)) return undefined;
    return { kind: kinds.some((k) => k?.kind === 'number') ? 'number' : 'integer', only: kinds.every((k) => k?.only) };
  }
  const numeric = types.filter((t) => t === 'number' || t === 'integer');
  if (!numeric.length) return undefined;
  return { kind: numeric.includes('number') ? 'number' : 'integer', only: numeric.length === types.length };
}

/**
 * Refuses, before Ajv coerces the text to a number, every value of a number or integer property of a query or
 * path schema that is not written as a decimal (above). Where the property also takes text (a union with a
 * string), only a value that JavaScript would read as a number is held to the rule.
 */
function decimalNumbersFirst(schema: unknown, validate: Validate): Validate {
  const properties = (schema as { properties?: Record<string, PropertySchema> }).properties ?? {};
  const numeric = Object.entries(properties)
    .map(([name, property]) => ({ name, ...numericKind(property) }))
    .filter((p): p is { name: string; kind: NumericKind; only: boolean } => p.kind !== undefined);
  if (!numeric.length) return validate;
  const wrapped = ((data: unknown) => {
    const issues: { instancePath: string; schemaPath: string; keyword: string; params: object; message: string }[] = [];
    if (data !== null && typeof data === 'object') {
      for (const { name, kind, only } of numeric) {
        const value = (data as Record<string, unknown>)[name];
        const texts = Array.isArray(value) ? value : [value];
        const pattern = kind === 'integer' ? DECIMAL_INTEGER : DECIMAL_NUMBER;
        const bad = texts.some((t) => typeof t === 'string' && !pattern.test(t) && (only || (t.trim() !== '' && !Number.isNaN(Number(t)))));
        if (bad) {
          issues.push({
            instancePath: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
            schemaPath: '#',
            keyword: 'decimal',
            params: {},
            message:
              kind === 'integer'
                ? 'must be an integer written in decimal digits (an optional minus sign; no fraction, exponent, prefix, plus sign or spaces)'
                : 'must be a number written in decimal digits (an optional minus sign and fraction; no exponent, prefix, plus sign or spaces)',
          });
        }
      }
    }
    if (issues.length) {
      wrapped.errors = issues;
      return false;
    }
    const ok = validate(data);
    wrapped.errors = validate.errors;
    return ok;
  }) as Validate;
  wrapped.errors = null;
  return wrapped;
}

/** Each route schema's validator, compiled once per process (see createValidatorCompiler). */
const compiled = new Map<string, ReturnType<FastifySchemaCompiler<unknown>>>();
const strict = makeAjv({ coerceTypes: false });
const coercing = makeAjv({ coerceTypes: 'array' });

/**
 * The service's validator compiler. Compiled validators are shared by every app the process builds, keyed by the
 * schema's text: compiling the routes' schemas is half of building an app, and the test suite builds hundreds.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    const key = `${httpPart}\u0000${JSON.stringify(schema)}`;
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = compileValidator(schema, httpPart)));
    return validate;
  };
}

function compileValidator(schema: unknown, httpPart: string | undefined): ReturnType<FastifySchemaCompiler<unknown>> {
  if (httpPart !== 'body') {
    const validate = coercing.compile(schema as object);
    const checked = httpPart === 'querystring' || httpPart === 'params' ? decimalNumbersFirst(schema, validate) : validate;
    return refusingUnstorable(checked) as unknown as ReturnType<FastifySchemaCompiler<unknown>>;
  }
  const validate = strict.compile(schema as object);
  const s = schema as { type?: string; required?: string[] };
  // A body schema with no required property (POST /v1/publish/:hash/compute) may be omitted entirely (Fastify passes an absent body as null).
  const optional = s.type === 'object' && !s.required?.length;
  const wrapped = (data: unknown) => {
    const ok = optional && (data === undefined || data === null) ? true : validate(data);
    wrapped.errors = validate.errors;
    return ok;
  };
  wrapped.errors = null as typeof validate.errors;
  return refusingUnstorable(wrapped) as unknown as ReturnType<FastifySchemaCompiler<unknown>>;
}

const serializers = new Map<string, (doc: unknown) => string>();
const compileSerializer = SerializerSelector()({}, {});

/**
 * Fastify's own response serializer compiler (fast-json-stringify), its serializers shared by every app the process
 * builds, keyed by the schema's text, as the validators are.
 */
export function createSerializerCompiler(): FastifySerializerCompiler<unknown> {
  return (route) => {
    const key = JSON.stringify(route.schema);
    let serialize = serializers.get(key);
    if (!serialize) serializers.set(key, (serialize = compileSerializer({ ...route, httpStatus: route.httpStatus ?? '' })));
    return serialize;
  };
}
