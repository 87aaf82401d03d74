import type { FastifyInstance } from 'fastify';
import { createServiceClient, type HumanActor, type ServiceResponse } from '../../../sdk/index.js';

/** The error body every refused API request answers. */
export interface ApiFailure {
  code: string;
  message?: string;
  retryAfterSeconds?: number;
  /** The values a refusal the page words itself names (an unknown parameter and the closest known one). */
  params?: Record<string, string | number>;
}

/** An API answer the site acts on: the body when it succeeded, else the refusal. */
export type ApiResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number; failure: ApiFailure };

function result<T>(res: ServiceResponse<unknown>): ApiResult<T> {
  if (res.status < 400) return { ok: true, status: res.status, body: res.body as T };
  const body = (res.body ?? {}) as Partial<ApiFailure>;
  return { ok: false, status: res.status, failure: { ...body, code: typeof body.code === 'string' ? body.code : 'INTERNAL_ERROR' } };
}

/**
 * The site as the newsroom's front end: it calls the service's own JSON API, signed with the human signing
 * secret for the person it logged in, in process (`inject`: no socket, the same routing, validation, auth,
 * rate limits, idempotency and services as any front end's request). The person's address is the request's,
 * so the per-address read limits count each reader, not the site.
 */
export function createSiteApi(app: FastifyInstance, secret: string | undefined) {
  const through =
    (remoteAddress: string): typeof fetch =>
    async (input, init) => {
      const url = new URL(String(input));
      const res = await app.inject({
        method: (init?.method ?? 'GET') as 'GET',
        url: `${url.pathname}${url.search}`,
        headers: init?.headers as Record<string, string>,
        ...(init?.body === undefined || init.body === null ? {} : { payload: String(init.body) }),
        remoteAddress,
      });
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, String(value));
      return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : new Uint8Array(res.rawPayload), {
        status: res.statusCode,
        headers,
      });
    };

  return {
    /** Whether the site can sign at all (HUMAN_SIGNING_SECRET is set). */
    enabled: secret !== undefined && secret !== '',

    /** A client for one browser request: signed writes and reads as `actor`, from the request's address. */
    forRequest(remoteAddress: string) {
      const client = createServiceClient({ baseUrl: 'http://site.internal', fetch: through(remoteAddress) });
      const key = secret ?? '';
      return {
        async write<T>(path: string, actor: HumanActor, body: Record<string, unknown> = {}, method = 'POST') {
          return result<T>(await client.humanWrite(key, path, { ...actor, ...body }, method));
        },
        async read<T>(path: string, actor: HumanActor, query: Record<string, string | undefined> = {}) {
          const signedQuery = { ...query, actorId: actor.actorId, verified: String(actor.verified), linkedHumanId: actor.linkedHumanId };
          return result<T>(await client.humanRead(key, path, signedQuery));
        },
        /** A public read (no signature): the routes every client may read, whose queries take no actor. */
        async readPublic<T>(path: string, query: Record<string, string | undefined> = {}) {
          return result<T>(await client.get(path, query));
        },
      };
    },
  };
}

export type SiteApi = ReturnType<typeof createSiteApi>;
export type SiteApiClient = ReturnType<SiteApi['forRequest']>;
