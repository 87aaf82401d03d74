import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  createAgentClient,
  createApiClient,
  generateAgentKey,
  ServiceError,
  type AgentBot,
  type ApiError,
  type ErrorCode,
  type KnownErrorCode,
  type StoryView,
} from '../../sdk/index.js';

// compile-time (npm run typecheck): a code or an enum value added after this SDK was built is still one of its
// types, while the known ones stay a list (tsc fails if ErrorCode or an answer's enum is closed again, or if
// KnownErrorCode widens to string)
const newCode: ErrorCode = 'SOMETHING_NEW';
const newTier: AgentBot['trustTier'] = 'SOMETHING_NEW';
const newStage: StoryView['publicationStage'] = 'SOMETHING_NEW';
const knownCodesAreAList: string extends KnownErrorCode ? false : true = true;
void [newCode, newTier, newStage, knownCodesAreAList];

/** An error body as a newer service answers it: a code this SDK has never heard of, with a detail of its own. */
const refusal = {
  error: 'Conflict',
  code: 'SOMETHING_NEW',
  message: 'a rule added after this SDK was built',
  nextAction: 'Read the story again',
  details: [{ path: '/storyId', code: 'SOMETHING_NEWER', message: 'a detail of the new rule' }],
  requestId: 'req-open-codes',
  somethingElseNew: { kept: true },
};

/** A story as a newer service answers it: an enum value and a member this SDK does not know. */
const newerStory = {
  id: 'st_newer',
  title: 'A story of a newer service',
  summary: 'Its stage is one the SDK does not know.',
  publicationStage: 'SOMETHING_NEW',
  state: 'SOMETHING_NEWER',
  reviewStatus: 'CLEAR',
  version: 1,
  packetHash: 'a'.repeat(64),
  addedLater: { by: 'a newer service' },
};

/** A stand-in for a newer service: each route answers what its handler says, and every request is counted. */
function newerService(routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void>) {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const route = `${req.method} ${req.url}`;
    seen.push(route);
    req.resume();
    req.on('end', () => {
      const handler = routes[route];
      if (handler) return handler(req, res);
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'Not found', code: 'NOT_FOUND', message: route }));
    });
  });
  return { server, seen };
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));

describe('the SDK reads codes and enum values it does not know (open enums)', () => {
  let server: Server;
  let seen: string[];
  let baseUrl: string;
  let unavailableOnce = true;

  before(async () => {
    ({ server, seen } = newerService({
      'POST /v1/agents/attestations': (_req, res) => json(res, 409, refusal),
      'GET /v1/stories/st_newer': (_req, res) => json(res, 200, newerStory),
      'GET /v1/stories/st_busy': (_req, res) => {
        // a 503 whose code is new: the client goes by the status and retries
        if (unavailableOnce) {
          unavailableOnce = false;
          return json(res, 503, { ...refusal, error: 'Service unavailable', code: 'SOMETHING_NEW_UNAVAILABLE', retryAfterSeconds: 0 });
        }
        return json(res, 200, { ...newerStory, id: 'st_busy' });
      },
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const key = generateAgentKey();
  const review = { botId: key.botId, verified: false, storyId: 'st_newer', packetHash: 'a'.repeat(64) };

  test('the generated client answers the unknown code as the error body, whole, without throwing', async () => {
    const api = createApiClient({ baseUrl });
    const answer = await api.POST('/v1/agents/attestations', { body: review });
    assert.equal(answer.response.status, 409);
    assert.equal(answer.data, undefined);
    const error: ApiError | undefined = answer.error;
    // compared with an unknown code: tsc refuses this comparison when `code` is the closed list
    assert.ok(answer.error?.code === 'SOMETHING_NEW');
    assert.deepEqual(error, refusal);
  });

  test('the agent client throws ServiceError with the unknown code, message, next action and details, not retried', async () => {
    const bot = createAgentClient({ baseUrl, key, sleep: async () => undefined });
    const sentBefore = seen.length;
    const err = await bot.attest({ storyId: 'st_newer', packetHash: 'a'.repeat(64) }).then(
      () => assert.fail('a 409 is a refusal'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ServiceError, String(err));
    assert.equal(err.status, 409);
    assert.equal(err.code, 'SOMETHING_NEW');
    assert.equal(err.message, refusal.message);
    assert.equal(err.nextAction, refusal.nextAction);
    assert.deepEqual(err.details, refusal.details);
    assert.deepEqual(err.body, refusal);
    // a 4xx is the service's answer, whatever its code: sent once
    assert.deepEqual(seen.slice(sentBefore), ['POST /v1/agents/attestations']);
  });

  test('a 503 with an unknown code is retried by its status; an answer with an unknown enum value is returned as sent', async () => {
    const bot = createAgentClient({ baseUrl, key, sleep: async () => undefined });
    const sentBefore = seen.length;
    const story = await bot.story('st_busy');
    assert.deepEqual(seen.slice(sentBefore), ['GET /v1/stories/st_busy', 'GET /v1/stories/st_busy']);
    assert.equal(story.publicationStage, 'SOMETHING_NEW');

    const newer = await bot.story('st_newer');
    assert.deepEqual(newer, newerStory);
    const api = createApiClient({ baseUrl });
    const read = await api.GET('/v1/stories/{id}', { params: { path: { id: 'st_newer' } } });
    assert.ok(read.data?.state === 'SOMETHING_NEWER');
  });
});
