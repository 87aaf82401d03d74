/**
 * A reader front end's server calling the service with the generated client (docs/signing.md): it holds
 * HUMAN_SIGNING_SECRET and signs each request for the person it logged in. Run against a local service:
 *   HUMAN_SIGNING_SECRET=… npx tsx examples/reader-front-end.ts http://127.0.0.1:8080 user-42
 */
import { createApiClient, humanSigning } from '../sdk/index.js';

const [baseUrl = 'http://127.0.0.1:8080', actorId = 'user-42'] = process.argv.slice(2);
const secret = process.env.HUMAN_SIGNING_SECRET;
if (!secret) throw new Error('set HUMAN_SIGNING_SECRET to the service’s signing secret');

const api = createApiClient({ baseUrl });
api.use(humanSigning({ secret }));

// a public read (the signature makes the reader known: the answer is private, and may be personalized)
const feed = await api.GET('/v1/feed', { params: { query: { mode: 'trending', actorId, verified: 'false' } } });
if (feed.error) throw new Error(`${feed.error.code}: ${feed.error.message}`);
const first = feed.data.items[0];
process.stdout.write(`${feed.data.items.length} trending stories; first: ${first?.title ?? '(none)'}\n`);

// a signed write: follow the first story's room, then list what the reader follows
if (first) {
  const followed = await api.POST('/v1/users/me/topics', { body: { actorId, verified: false, topic: first.room } });
  if (followed.error) throw new Error(`${followed.error.code}: ${followed.error.message}`);
}
const topics = await api.GET('/v1/users/me/topics', { params: { query: { actorId, verified: 'false' } } });
process.stdout.write(`following: ${topics.data?.items.map((t) => t.topic).join(', ') || 'nothing yet'}\n`);
