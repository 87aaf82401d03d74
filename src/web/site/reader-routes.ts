import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Lang } from '../../platform/i18n/index.js';
import { StoryParams } from '../../newsroom/common/schemas.js';
import { WorldIdVerifyBody } from '../../identity/humans/schemas.js';
import type { createIdentityService } from '../../identity/humans/service.js';
import { CommentBody, CommentDeleteBody, CommentEditBody, CommentParams } from '../../newsroom/comments/schemas.js';
import type { createCommentsService } from '../../newsroom/comments/service.js';
import type { FeedService } from '../../newsroom/feed/service.js';
import { FlagBody } from '../../newsroom/flags/schemas.js';
import type { createFlagsService } from '../../newsroom/flags/service.js';
import { RewardVoteBody, RewardVoteChangeBody } from '../../newsroom/reward-votes/schemas.js';
import type { createRewardVotesService } from '../../newsroom/reward-votes/service.js';
import { BookmarkCreateBody } from '../../readers/users/bookmark-schemas.js';
import type { createBookmarksService } from '../../readers/users/bookmarks-service.js';
import type { createExportService } from '../../readers/users/export-service.js';
import type { createHistoryService } from '../../readers/users/history-service.js';
import { PreferencesUpdateBody } from '../../readers/users/schemas.js';
import type { createUsersService } from '../../readers/users/service.js';
import { TopicFollowBody } from '../../readers/users/topic-schemas.js';
import type { createTopicsService } from '../../readers/users/topics-service.js';
import type { CallResult, ServiceCalls } from './calls.js';
import {
  CommentDeleteForm,
  CommentEditForm,
  CommentForm,
  FlagForm,
  HistoryClearForm,
  PlainForm,
  PreferencesForm,
  TopicForm,
  VoteForm,
  type ProofForm,
} from './form-schemas.js';
import { actorOf, finish, flashOf, requireReader, safeBack } from './form-replies.js';
import { LangQuery } from './schemas.js';
import { devProofOf } from './dev-proof.js';
import { href } from './links.js';
import { sendPage } from './render.js';
import { pageError, readerOf, sameOriginCheck, type Flash, type SiteReader } from './session.js';
import { namePageHref } from './name-routes.js';
import { roomName } from './format.js';
import type { LoginMode } from './visitor.js';
import { ActivityPage, HistoryClearPage } from './views/activity.js';
import { MyNewsroomPage } from './views/me.js';

/** The services a reader's forms and pages act through (the same instances as the API's routes). */
export interface ReaderServices {
  comments: ReturnType<typeof createCommentsService>;
  rewardVotes: ReturnType<typeof createRewardVotesService>;
  flags: ReturnType<typeof createFlagsService>;
  humans: ReturnType<typeof createIdentityService>;
  feed: FeedService;
  users: ReturnType<typeof createUsersService>;
  bookmarks: ReturnType<typeof createBookmarksService>;
  topics: ReturnType<typeof createTopicsService>;
  history: ReturnType<typeof createHistoryService>;
  exporter: ReturnType<typeof createExportService>;
}

/** A followed topic in words: a room by its name in the form's language, any other topic as the service labels it. */
const topicLabel = (form: { lang?: Lang; kind?: string }, label: string) =>
  form.kind === 'ROOM' ? roomName(form.lang ?? 'en', label) : label;

/**
 * The comment form's only free field is the text: the refusal of a body of white space alone gets its own sentence
 * instead of the generic one for an invalid form.
 */
const blankAsOwnSentence = <T>(result: CallResult<T>, body: string): CallResult<T> =>
  !result.ok && result.failure.code === 'VALIDATION_FAILED' && body.trim() === ''
    ? { ...result, failure: { code: 'COMMENT_BLANK' } }
    : result;

/** How many of each of the reader's acts "My activity" lists (the newest). */
const ACTIVITY_ITEMS = 50;

type Refused = Extract<CallResult<unknown>, { ok: false }>;

/**
 * A reader's own page whose read was refused: a login the service no longer honours logs in again and comes back
 * to `here`; any other refusal is the error page with the API's status.
 */
function refusedRead(request: FastifyRequest, reply: FastifyReply, failed: Refused, lang: Lang, here: string) {
  if (failed.failure.code === 'LINKED_HUMAN_NOT_BOUND') {
    delete request.session.reader;
    return reply.redirect(href('/login', lang, { next: here }), 303);
  }
  throw pageError(failed.status, failed.failure.message ?? failed.failure.code);
}

/** The actor fields of a signed read's query, as the API's query types carry them. */
const signedQuery = (actor: HumanActor) => ({
  actorId: actor.actorId,
  verified: actor.verified ? ('true' as const) : ('false' as const),
  linkedHumanId: actor.linkedHumanId,
});

export interface ReaderRoutesOptions {
  calls: ServiceCalls;
  services: ReaderServices;
  mode: LoginMode;
  clock: Clock;
  prepare(request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * Everything a logged-in reader does, as forms (post, redirect, get) and their own pages: comment, reward vote
 * and flag (with the World ID action proof they ask for), bookmark, follow, "My newsroom", "My activity",
 * preferences, history clear (after a confirmation page) and the data export. Each form is one call of the service the JSON API's route calls (or two: a
 * proof, then the act), through ./calls.ts, so the rules, limits, audit and refusals are the API's; a refusal
 * comes back as a sentence.
 */
export const readerRoutes: FastifyPluginAsyncTypebox<ReaderRoutesOptions> = async (app, options) => {
  const { calls, services, mode, clock } = options;
  const guarded = { preHandler: [sameOriginCheck, (app as FastifyInstance).csrfProtection] };

  /** Runs a form for the logged-in reader: the call, then back with its outcome (or to the login page). */
  async function act<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    form: { lang?: Lang; back?: string },
    call: (reader: SiteReader) => Promise<CallResult<T>>,
    done: (body: T) => Flash,
    backOverride?: (lang: Lang) => string,
  ) {
    const lang = form.lang ?? 'en';
    const back = backOverride?.(lang) ?? safeBack(form.back, lang);
    const reader = requireReader(request, reply, lang, back, clock.now());
    if (!reader) return reply;
    const result = await call(reader);
    return finish(request, reply, flashOf(result, done), back, lang);
  }

  /**
   * The World ID action proof a form asks for, recorded before the act that consumes it: the development proof
   * of the logged-in test person, or IDKit's fields (World ID mode). No proof asked: nothing to record.
   */
  async function proveFirst(reader: SiteReader, body: ProofForm, action: string): Promise<CallResult<unknown> | null> {
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
    const fields = { action, ...proof };
    const recorded = await calls.write(actorOf(reader), (actor, body) => services.humans.verifyHumanAction(actor, 'world_id', body), {
      body: { schema: WorldIdVerifyBody, value: fields },
    });
    return recorded.ok ? null : recorded;
  }

  app.post('/stories/:id/comment', { ...guarded, schema: { hide: true, params: StoryParams, body: CommentForm } }, (request, reply) => {
    // a comment shows its author's name: a reader without one chooses it first, and comes back to the story
    const nameless = readerOf(request, clock.now());
    if (nameless && !nameless.name) {
      const lang = request.body.lang ?? 'en';
      const flash: Flash = { kind: 'refused', message: 'NAME_NEEDED' };
      return finish(request, reply, flash, namePageHref(lang, safeBack(request.body.back, lang)), lang);
    }
    return act(
      request,
      reply,
      request.body,
      async (reader) => {
        const fields = { body: request.body.body, ...(request.body.parentId ? { parentId: request.body.parentId } : {}) };
        const posted = await calls.write(
          actorOf(reader),
          async (actor, body) => services.comments.create(actor, request.params.id, body, await request.governance()),
          { body: { schema: CommentBody, value: fields } },
        );
        return blankAsOwnSentence(posted, fields.body);
      },
      () => ({ kind: 'done', message: request.body.parentId ? 'account.comment.replyDone' : 'account.comment.done' }),
    );
  });

  app.post(
    '/stories/:id/comments/:commentId/edit',
    { ...guarded, schema: { hide: true, params: CommentParams, body: CommentEditForm } },
    (request, reply) =>
      act(
        request,
        reply,
        request.body,
        async (reader) => {
          const { id, commentId } = request.params;
          const fields = { body: request.body.body };
          const edited = await calls.write(actorOf(reader), (actor, body) => services.comments.edit(actor, id, commentId, body), {
            body: { schema: CommentEditBody, value: fields },
          });
          return blankAsOwnSentence(edited, fields.body);
        },
        () => ({ kind: 'done', message: 'account.comment.editDone' }),
      ),
  );

  app.post(
    '/stories/:id/comments/:commentId/delete',
    { ...guarded, schema: { hide: true, params: CommentParams, body: CommentDeleteForm } },
    (request, reply) => {
      const { id, commentId } = request.params;
      // not confirmed (a crafted post): back to the comment, nothing is deleted
      if (request.body.confirm !== '1') return reply.redirect(safeBack(request.body.back, request.body.lang ?? 'en'), 303);
      return act(
        request,
        reply,
        request.body,
        (reader) =>
          calls.write(actorOf(reader), async (actor) => services.comments.remove(actor, id, commentId, await request.governance()), {
            body: { schema: CommentDeleteBody, value: {} },
          }),
        () => ({ kind: 'done', message: 'account.comment.deleteDone' }),
      );
    },
  );

  /**
   * A reward vote cast or changed: the proof first when the reader gave one, then the call; `change` is the route's
   * second thought (a 404 there means the reader has no vote to change: the page showed the story).
   */
  function vote(path: string, change: boolean) {
    app.post(path, { ...guarded, schema: { hide: true, params: StoryParams, body: VoteForm } }, (request, reply) =>
      act<{ weight: number }>(
        request,
        reply,
        request.body,
        async (reader) => {
          const id = request.params.id;
          const refusedProof = await proveFirst(reader, request.body, `reward:${id}`);
          if (refusedProof && !refusedProof.ok) return refusedProof;
          const fields = { vote: request.body.vote };
          if (!change)
            return calls.write(
              actorOf(reader),
              async (actor, body) => services.rewardVotes.cast(actor, id, body, await request.governance()),
              {
                body: { schema: RewardVoteBody, value: fields },
              },
            );
          const changed = await calls.write(
            actorOf(reader),
            async (actor, body) => services.rewardVotes.change(actor, id, body, await request.governance()),
            { body: { schema: RewardVoteChangeBody, value: fields } },
          );
          if (!changed.ok && changed.status === 404) return { ...changed, failure: { code: 'REWARD_VOTE_NOT_CAST' } };
          return changed;
        },
        (cast) => ({ kind: 'done', message: change ? 'account.vote.changed' : 'account.vote.done', params: { weight: cast.weight } }),
      ),
    );
  }
  vote('/stories/:id/vote', false);
  vote('/stories/:id/vote/change', true);

  app.post('/stories/:id/flag', { ...guarded, schema: { hide: true, params: StoryParams, body: FlagForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      async (reader) => {
        const { severity, claimId, reason } = request.body;
        if (severity === 'HIGH' && claimId) {
          const refusedProof = await proveFirst(reader, request.body, `flag_high_severity:${claimId}`);
          if (refusedProof && !refusedProof.ok) return refusedProof;
        }
        const fields = { severity, reason, ...(claimId ? { claimId } : {}) };
        return calls.write(
          actorOf(reader),
          async (actor, body) => services.flags.create(actor, request.params.id, body, await request.governance()),
          { body: { schema: FlagBody, value: fields } },
        );
      },
      () => ({ kind: 'done', message: 'account.flag.done' }),
    ),
  );

  app.post('/stories/:id/bookmark', { ...guarded, schema: { hide: true, params: StoryParams, body: PlainForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      (reader) =>
        calls.write(actorOf(reader), (actor) => services.bookmarks.create(actor, request.params.id), {
          body: { schema: BookmarkCreateBody, value: { storyId: request.params.id } },
        }),
      () => ({ kind: 'done', message: 'account.bookmark.done' }),
    ),
  );

  app.post('/stories/:id/bookmark/remove', { ...guarded, schema: { hide: true, params: StoryParams, body: PlainForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      (reader) => calls.write(actorOf(reader), (actor) => services.bookmarks.remove(actor, request.params.id)),
      () => ({ kind: 'done', message: 'account.bookmark.removed' }),
    ),
  );

  app.post('/me/topics', { ...guarded, schema: { hide: true, body: TopicForm } }, (request, reply) =>
    act<{ label: string }>(
      request,
      reply,
      request.body,
      (reader) => {
        const fields = { topic: request.body.topic, kind: request.body.kind ?? 'TAG' };
        return calls.write(actorOf(reader), (actor, body) => services.topics.follow(actor, body), {
          body: { schema: TopicFollowBody, value: fields },
        });
      },
      // a room by its name, as the page's button said it
      (followed) => ({ kind: 'done', message: 'account.follow.done', params: { topic: topicLabel(request.body, followed.label) } }),
    ),
  );

  app.post('/me/topics/remove', { ...guarded, schema: { hide: true, body: TopicForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      (reader) => calls.write(actorOf(reader), (actor) => services.topics.unfollow(actor, request.body.topic)),
      () => ({ kind: 'done', message: 'account.unfollow.done', params: { topic: topicLabel(request.body, request.body.topic) } }),
    ),
  );

  app.post('/me/preferences', { ...guarded, schema: { hide: true, body: PreferencesForm } }, (request, reply) =>
    act(
      request,
      reply,
      request.body,
      (reader) => {
        const preferences = { lang: request.body.siteLang, personalization: request.body.personalization === '1' };
        return calls.write(actorOf(reader), (actor) => services.users.updatePreferences(actor, preferences), {
          body: { schema: PreferencesUpdateBody, value: { preferences } },
        });
      },
      () => ({ kind: 'done', message: 'account.me.pref.done' }),
      // the page comes back in the language just chosen
      () => href('/me', request.body.siteLang),
    ),
  );

  /** Clearing the history asks first (a page of its own, which works without scripts): what goes, what stays. */
  app.get('/me/history/clear', { schema: { hide: true, querystring: LangQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const here = href('/me/history/clear', lang);
    const reader = requireReader(request, reply, lang, here, clock.now());
    if (!reader) return reply;
    const count = await calls.read(actorOf(reader), (actor) => services.history.count(actor));
    if (!count.ok) return refusedRead(request, reply, count, lang, here);
    options.prepare(request, reply);
    return sendPage(reply, HistoryClearPage, { lang, count: count.body });
  });

  app.post('/me/history/clear', { ...guarded, schema: { hide: true, body: HistoryClearForm } }, (request, reply) => {
    // not confirmed (an old form, a crafted post): to the question first, nothing is deleted
    if (request.body.confirm !== '1') return reply.redirect(href('/me/history/clear', request.body.lang ?? 'en'), 303);
    return act(
      request,
      reply,
      request.body,
      (reader) => calls.write(actorOf(reader), (actor) => services.history.clear(actor)),
      () => ({ kind: 'done', message: 'account.me.history.done' }),
    );
  });

  /** "My activity": the reader's comments, votes and flags, and what became of each flag. */
  app.get('/me/activity', { schema: { hide: true, querystring: LangQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const here = href('/me/activity', lang);
    const reader = requireReader(request, reply, lang, here, clock.now());
    if (!reader) return reply;
    const activity = await calls.read(actorOf(reader), async (actor) => {
      const [comments, votes, flags] = await Promise.all([
        services.comments.byAuthor(actor.actorId, ACTIVITY_ITEMS),
        services.rewardVotes.byActor(actor.actorId, ACTIVITY_ITEMS),
        services.flags.byActor(actor.actorId, ACTIVITY_ITEMS),
      ]);
      return { comments, votes, flags };
    });
    if (!activity.ok) return refusedRead(request, reply, activity, lang, here);
    options.prepare(request, reply);
    return sendPage(reply, ActivityPage, { lang, ...activity.body });
  });

  app.get('/me', { schema: { hide: true, querystring: LangQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const reader = requireReader(request, reply, lang, href('/me', lang), clock.now());
    if (!reader) return reply;
    const person = actorOf(reader);
    const [feed, bookmarks, topics, preferences] = await Promise.all([
      calls.read(person, (actor) => services.feed.feed({ lang, mode: 'trending', limit: 20 }, actor)),
      calls.read(person, (actor) => services.bookmarks.list(actor, { ...signedQuery(actor), lang, limit: 50 })),
      calls.read(person, (actor) => services.topics.list(actor)),
      calls.read(person, (actor) => services.users.getPreferences(actor)),
    ]);
    if (!feed.ok || !bookmarks.ok || !topics.ok || !preferences.ok) {
      const failed = [feed, bookmarks, topics, preferences].find((r) => !r.ok) as Refused;
      return refusedRead(request, reply, failed, lang, href('/me', lang));
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
    const exported = await calls.read(actorOf(reader), (actor) => services.exporter.export(actor));
    if (!exported.ok) throw pageError(exported.status, exported.failure.code);
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="newsroom-export-${day}.json"`)
      .send(JSON.stringify(exported.body, null, 2));
  });
};
