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
  return ({ schema, httpPart }) => {
    if (httpPart !== 'body') return coercing.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
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
    return wrapped as unknown as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}
