/** Example of a readiness answer for the OpenAPI document (checked against its schema by test/platform/openapi-words.test.ts). */

export const readinessExample = {
  status: 'ready',
  checkedAt: '2026-05-13T15:10:02.331Z',
  checks: {
    database: { ok: true, required: true, latencyMs: 1.8 },
    migrations: { ok: true, required: true, latencyMs: 0.6, detail: 'all applied' },
    redis: { ok: true, required: true, latencyMs: 0.9 },
    signingSecret: { ok: true, required: true },
  },
};
