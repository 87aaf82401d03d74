import { Type, type TSchema } from '@sinclair/typebox';

/** Shared TypeBox pieces: the error body, actor fields, language and pagination. */

/** A schema or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ErrorResponse = Type.Object(
  {
    error: Type.String(),
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.Optional(Type.String()),
          header: Type.Optional(Type.String()),
          code: Type.Optional(Type.String()),
          message: Type.String(),
        }),
      ),
    ),
    nextAction: Type.Optional(Type.String()),
    docs: Type.Optional(Type.String()),
    requestId: Type.String(),
    retryAfterSeconds: Type.Optional(Type.Number()),
  },
  {
    $id: 'ErrorResponse',
    // not `Error`: a generated TypeScript client would declare a type that shadows JavaScript's global Error
    title: 'ApiError',
    examples: [
      {
        error: 'Validation failed',
        code: 'VALIDATION_FAILED',
        message: 'The request is not valid',
        details: [{ path: '/body', code: 'maxLength', message: 'must NOT have more than 10000 characters' }],
        nextAction: 'Fix each field named in details',
        requestId: '3f0c9a52-6f1e-4c1b-9d53-2b8e7a4f1c60',
      },
    ],
    description:
      'Every 4xx and 5xx answer: the status label, the stable `code` (branch on it, never on `message`), details per fault, what to do next and the request id (the `x-request-id` header). docs/api-conventions.md, "Errors".',
  },
);

/** Error responses a route documents, keyed by status. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorResponse]));
}

/**
 * A success response of a route: its schema, and what the status means on this operation (the response's
 * description in the OpenAPI document, e.g. "Accepted: the comment as stored, with its id"). The description
 * travels as `x-response-description`, which @fastify/swagger reads and drops from the schema; validation and
 * serialization ignore it.
 */
export function answer<T extends TSchema>(schema: T, description: string): T {
  return { ...schema, 'x-response-description': description };
}

/** Actor ids, linked-human ids and other identity keys: 1 to 200 of A-Z a-z 0-9 _ . : @ - */
export const IDENTIFIER = /^[A-Za-z0-9_.:@-]{1,200}$/;
/** `bot_` + the first 32 hex characters of SHA-256 of the bot's public key. */
export const BOT_ID = /^bot_[0-9a-f]{32}$/;

export const Identifier = Type.String({ minLength: 1, maxLength: 200, pattern: IDENTIFIER.source });

/**
 * The linked-human id namespace: `h_` + 32 lowercase hex, the form the service derives for a person from a
 * World ID login or a secondary proof. Only the identity records may attach such an id to a request (as a
 * bound `linkedHumanId`).
 */
export const LINKED_HUMAN_ID = /^h_[0-9a-f]{32}$/;

/** An actorId: an identifier that is not in the linked-human id namespace (so it can never match an allowlisted person). */
export const ActorId = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: IDENTIFIER.source,
  not: { type: 'string', pattern: LINKED_HUMAN_ID.source },
  description: "The front end's id for its user: 1 to 200 of A-Z a-z 0-9 _ . : @ -, never of the linked-human form h_ + 32 hex",
});

/** Actor fields of every human signed write body. */
export const HumanActorBody = {
  actorId: ActorId,
  verified: Type.Boolean(),
  linkedHumanId: Type.Optional(Identifier),
};

export const TextBoolean = Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]);

/** Actor fields of every human signed read query. */
export const HumanActorQuery = {
  actorId: ActorId,
  verified: TextBoolean,
  linkedHumanId: Type.Optional(Identifier),
};

/**
 * A row's `seq` (a PostgreSQL bigint) as the decimal digits a page's address carries: at most 18 digits, so
 * always below int8's maximum (9223372036854775807), and far above any sequence a table reaches.
 */
export const SeqText = Type.String({ maxLength: 18, pattern: '^(0|[1-9][0-9]{0,17})$' });

export const BotId = Type.String({ pattern: BOT_ID.source });
export const Sha256Hex = Type.String({ pattern: '^[0-9a-f]{64}$' });
export const DateTime = Type.String({ format: 'date-time' });

export const LANGS = ['en', 'es', 'fr', 'de', 'zh-Hans'] as const;
export type Lang = (typeof LANGS)[number];
export const LangSchema = Type.Union([
  Type.Literal('en'),
  Type.Literal('es'),
  Type.Literal('fr'),
  Type.Literal('de'),
  Type.Literal('zh-Hans'),
]);
