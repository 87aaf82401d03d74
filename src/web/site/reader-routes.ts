import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Clock } from '../../platform/clock.js';
import type { Lang } from '../../platform/i18n/index.js';
import { StoryParams } from '../../newsroom/common/schemas.js';
import type { FeedResponse } from '../../newsroom/feed/schemas.js';
import type { BookmarksPage } from '../../readers/users/bookmark-schemas.js';
import type { PreferencesResponse } from '../../readers/users/schemas.js';
import type { TopicsList } from '../../readers/users/topic-schemas.js';
import type { ApiResult, SiteApi, SiteApiClient } from './api.js';
import { CommentForm, FlagForm, PlainForm, PreferencesForm, TopicForm, VoteForm, type ProofForm } from './form-schemas.js';
import { actorOf, finish, flashOf, requireReader, safeBack } from './form-replies.js';
import { LangQuery } from './schemas.js';
import { devProofOf } from './dev-proof.js';
import { href } from './links.js';
import { sendPage } from './render.js';
import { pageError, sameOriginCheck, type Flash, type SiteReader } from './session.js';
import type { LoginMode } from './visitor.js';
import { MyNewsroomPage } from './views/me.js';

export interface ReaderRoutesOptions {
  api: SiteApi;
  mode: LoginMode;
  clock: Clock;
  prepare(request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * Everything a logged-in reader does, as forms (post, redirect, get) and their own pages: comment, reward vote
 * and flag (with the World ID action proof they ask for), bookmark, follow, "My newsroom", preferences,
 * history clear and the data export. Each form is one signed request of the JSON API (or two: a proof, then
 * the act), so the service's rules, limits and refusals are the API's; a refusal comes back as a sentence.
 */
export const readerRoutes: FastifyPluginAsyncTypebox<ReaderRoutesOptions> = async (app, options) => {
  const { api, mode, clock } = options;
  const guarded = { preHandler: [sameOriginCheck, (app as FastifyInstance).csrfProtection] };

  /** Runs a form for the logged-in reader: the call, then back with its outcome (or to the login page). */
  async function act<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    form: { lang?: Lang; back?: string },
    call: (client: SiteApiClient, reader: SiteReader) => Promise<ApiResult<T>>,
    done: (body: T) => Flash,
    backOverride?: (lang: Lang) => string,
  ) {
    const lang = form.lang ?? 'en';
    const back = backOverride?.(lang) ?? safeBack(form.back, lang);
    const reader = requireReader(request, reply, lang, back, clock.now());
    if (!reader) return reply;
    const result = await call(api.forRequest(request.ip), reader);
    return finish(request, reply, flashOf(result, done), back, lang);
  }

  /**
   * The World ID action proof a form asks for, recorded before the act that consumes it: the development proof
   * of the logged-in test person, or IDKit's fields (World ID mode). No proof asked: nothing to record.
   */
  async function proveFirst(
    client: SiteApiClient,
    reader: SiteReader,
    body: ProofForm,
    action: string,
  ): Promise<ApiResult<unknown> | null> {
    if (body.prove !== '1') return null;
    const proof =
      mode === 'dev'
        ? devProofOf(reader.devPerson ?? reader.linkedHumanId, action)
        : body.nullifier_hash && body.merkle_root && body.proof && body.verification_level
          ? {
              nullifier_hash: body.nullifier_hash,
              merkle_root: body.merkle_root,
              proof: body.proof,
              verification_level: body.verification_level,
            }
          : null;
    if (!proof) return null;
    const recorded = await client.write('/v1/worldid/verify', actorOf(reader), { action, ...proof });
    return recorded.ok ? null : recorded;
  }

  const storyPath = (id: string) => `/stories/${encodeURIComponent(id)}`;

  app.post('/stories/:id/comment', { ...guarded, schema: { hide: true, params: StoryParams, body: CommentForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      (client, reader) =>
        client.write(`/v1/stories/${encodeURIComponent(request.params.id)}/comments`, actorOf(reader), { body: request.body.body }),
      () => ({ kind: 'done', message: 'account.comment.done' }),
    ),
  );

  app.post('/stories/:id/vote', { ...guarded, schema: { hide: true, params: StoryParams, body: VoteForm } }, (request, reply) =>
    act<{ weight: number }>(
      request,
      reply,
      request.body,
      async (client, reader) => {
        const id = request.params.id;
        const refusedProof = await proveFirst(client, reader, request.body, `reward:${id}`);
        if (refusedProof && !refusedProof.ok) return refusedProof as ApiResult<{ weight: number }>;
        return client.write<{ weight: number }>(`/v1${storyPath(id)}/reward-votes`, actorOf(reader), { vote: request.body.vote });
      },
      (vote) => ({ kind: 'done', message: 'account.vote.done', params: { weight: vote.weight } }),
    ),
  );

  app.post('/stories/:id/flag', { ...guarded, schema: { hide: true, params: StoryParams, body: FlagForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      async (client, reader) => {
        const { severity, claimId, reason } = request.body;
        if (severity === 'HIGH' && claimId) {
          const refusedProof = await proveFirst(client, reader, request.body, `flag_high_severity:${claimId}`);
          if (refusedProof && !refusedProof.ok) return refusedProof;
        }
        return client.write(`/v1${storyPath(request.params.id)}/flags`, actorOf(reader), {
          severity,
          reason,
          ...(claimId ? { claimId } : {}),
        });
      },
      () => ({ kind: 'done', message: 'account.flag.done' }),
    ),
  );

  app.post('/stories/:id/bookmark', { ...guarded, schema: { hide: true, params: StoryParams, body: PlainForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      (client, reader) => client.write('/v1/users/me/bookmarks', actorOf(reader), { storyId: request.params.id }),
      () => ({ kind: 'done', message: 'account.bookmark.done' }),
    ),
  );

  app.post('/stories/:id/bookmark/remove', { ...guarded, schema: { hide: true, params: StoryParams, body: PlainForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      (client, reader) => client.write(`/v1/users/me/bookmarks/${encodeURIComponent(request.params.id)}`, actorOf(reader), {}, 'DELETE'),
      () => ({ kind: 'done', message: 'account.bookmark.removed' }),
    ),
  );

  app.post('/me/topics', { ...guarded, schema: { hide: true, body: TopicForm } }, (request, reply) =>
    act<{ label: string }>(
      request,
      reply,
      request.body,
      (client, reader) =>
        client.write('/v1/users/me/topics', actorOf(reader), { topic: request.body.topic, kind: request.body.kind ?? 'TAG' }),
      (followed) => ({ kind: 'done', message: 'account.follow.done', params: { topic: followed.label } }),
    ),
  );

  app.post('/me/topics/remove', { ...guarded, schema: { hide: true, body: TopicForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      (client, reader) => client.write(`/v1/users/me/topics/${encodeURIComponent(request.body.topic)}`, actorOf(reader), {}, 'DELETE'),
      () => ({ kind: 'done', message: 'account.unfollow.done', params: { topic: request.body.topic } }),
    ),
  );

  app.post('/me/preferences', { ...guarded, schema: { hide: true, body: PreferencesForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      (client, reader) =>
        client.write('/v1/users/me/preferences', actorOf(reader), {
          preferences: { lang: request.body.siteLang, personalization: request.body.personalization === '1' },
        }),
      () => ({ kind: 'done', message: 'account.me.pref.done' }),
      // the page comes back in the language just chosen
      () => href('/me', request.body.siteLang),
    ),
  );

  app.post('/me/history/clear', { ...guarded, schema: { hide: true, body: PlainForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      (client, reader) => client.write('/v1/users/me/history/clear', actorOf(reader)),
      () => ({ kind: 'done', message: 'account.me.history.done' }),
    ),
  );

  app.get('/me', { schema: { hide: true, querystring: LangQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const reader = requireReader(request, reply, lang, href('/me', lang), clock.now());
    if (!reader) return reply;
    const client = api.forRequest(request.ip);
    const actor = actorOf(reader);
    const [feed, bookmarks, topics, preferences] = await Promise.all([
      client.read<FeedResponse>('/v1/feed', actor, { lang, mode: 'trending', limit: '20' }),
      client.read<BookmarksPage>('/v1/users/me/bookmarks', actor, { lang, limit: '50' }),
      client.read<TopicsList>('/v1/users/me/topics', actor),
      client.read<PreferencesResponse>('/v1/users/me/preferences', actor),
    ]);
    if (!feed.ok || !bookmarks.ok || !topics.ok || !preferences.ok) {
      const failed = [feed, bookmarks, topics, preferences].find((r) => !r.ok) as Extract<ApiResult<unknown>, { ok: false }>;
      if (failed.failure.code === 'LINKED_HUMAN_NOT_BOUND') {
        delete request.session.reader;
        return reply.redirect(href('/login', lang, { next: href('/me', lang) }), 303);
      }
      throw pageError(failed.status, failed.failure.message ?? failed.failure.code);
    }
    options.prepare(request, reply);
    return sendPage(reply, MyNewsroomPage, {
      lang,
      feed: feed.body,
      bookmarks: bookmarks.body,
      topics: topics.body,
      preferences: preferences.body,
    });
  });

  app.get('/me/export', { schema: { hide: true, querystring: LangQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const reader = requireReader(request, reply, lang, href('/me', lang), clock.now());
    if (!reader) return reply;
    const exported = await api.forRequest(request.ip).read<unknown>('/v1/users/me/export', actorOf(reader));
    if (!exported.ok) throw pageError(exported.status, exported.failure.code);
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="newsroom-export-${day}.json"`)
      .send(JSON.stringify(exported.body, null, 2));
  });
};
