import { Type, type SchemaOptions, type TLiteral, type TUnion } from '@sinclair/typebox';

type LiteralsOf<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/**
 * A string enumeration written as JSON Schema `enum`: a wrong value gets one clear validation error
 * ("must be equal to one of the allowed values") and OpenAPI shows one enum, where a union of literals
 * reports one error per literal. It is typed as the equivalent union of literals so that the Fastify type
 * provider infers the same static type (the union of the values).
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnion<LiteralsOf<T>> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] }) as unknown as TUnion<LiteralsOf<T>>;
}
