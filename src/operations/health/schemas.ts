import { Type, type Static } from '@sinclair/typebox';
import { readinessExample } from './examples.js';

export const LivenessResponse = Type.Object(
  { status: Type.Literal('ok') },
  { title: 'Liveness', description: 'The liveness answer: the process serves HTTP.' },
);

const Check = Type.Object(
  {
    ok: Type.Boolean(),
    required: Type.Boolean({ description: 'false: reported, but does not make the service unready' }),
    latencyMs: Type.Optional(Type.Number()),
    detail: Type.Optional(Type.String()),
  },
  {
    title: 'ReadinessCheck',
    description:
      'One readiness check (database, migrations, Redis, signing secret, shutdown): whether it passed, whether it is required for readiness, and how long it took.',
  },
);

export const ReadinessResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
    checkedAt: Type.String({ format: 'date-time' }),
    checks: Type.Object({
      database: Check,
      migrations: Check,
      redis: Type.Optional(Check),
      signingSecret: Check,
      /** With DATABASE_READ_URL: the read replica (never required: while it is down or lagging the primary serves every read). */
      readReplica: Type.Optional(Check),
      /** Present while the instance drains after SIGTERM (not ok: a load balancer stops sending to it). */
      shutdown: Type.Optional(Check),
    }),
  },
  {
    title: 'Readiness',
    examples: [readinessExample],
    description:
      'Whether this instance is ready to take traffic, with every check; the same shape is answered with 503 when a required check fails.',
  },
);
export type ReadinessResponse = Static<typeof ReadinessResponse>;
export type ReadinessCheck = Static<typeof Check>;
