import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

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

export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = makeAjv({ coerceTypes: false });
  const coercing = makeAjv({ coerceTypes: 'array' });
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
}
