import type { Scenario } from './types.js';

const BODY = '{"status":"ok"}';

/** GET /healthz of the service vs one bare Fastify route answering the same body. */
export const healthz: Scenario = {
  name: 'healthz',
  title: 'GET /healthz',
  targetRatio: 0.8,
  baseline: () => ({ server: 'healthz', load: { method: 'GET', path: '/healthz', expectStatus: 200, expectBody: BODY } }),
  subject: () => ({ server: 'app', load: { method: 'GET', path: '/healthz', expectStatus: 200, expectBody: BODY } }),
};
