import type { Scenario } from './types.js';

const PATH = '/v1/session/worldid/challenge';
/** Just under the default body limit (HTTP_BODY_LIMIT_BYTES, 1 MiB). */
const SIZE = 1_000_000;
const HEAD = '{"actorId":"bench-reader","verified":false,"n":';

/** A number with a megabyte of zeros inside it: what a trailing-zero regular expression once took seconds over. */
const HOSTILE = `${HEAD}1.${'0'.repeat(SIZE - HEAD.length - 4)}1}`;
/** A body of the same size whose member is a plain string. */
const PLAIN = `${HEAD}"${'a'.repeat(SIZE - HEAD.length - 3)}"}`;

const load = (body: string) => ({
  method: 'POST' as const,
  path: PATH,
  headers: { 'content-type': 'application/json' },
  body,
  // both are refused for want of a signature (the route is signed by a front end), after the body has been parsed
  expectStatus: 401,
});

/**
 * A 1 MB body built to be slow to parse (no credential needed: the body is parsed before anything else) next to
 * a plain body of the same size, both on the service: the hostile one must cost about what the plain one does.
 */
export const hostileBody: Scenario = {
  name: 'hostile-body',
  title: 'POST 1 MB body: a number of zeros vs a plain string',
  targetRatio: 0.5,
  // a megabyte a request: a few connections fill the server
  connections: () => 4,
  baseline: () => ({ server: 'app', load: load(PLAIN) }),
  subject: () => ({ server: 'app', load: load(HOSTILE) }),
};
