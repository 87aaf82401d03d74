import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HumanActor } from '../../../sdk/index.js';
import type { Clock } from '../../platform/clock.js';
import { invalidCursor } from '../../platform/cursor.js';
import type { Lang } from '../../platform/i18n/index.js';
import { actorOf, finish, flashOf, sitePath } from '../site/form-replies.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { pageError, readerOf, sameOriginCheck, type Flash, type SiteReader } from '../site/session.js';
import type { LoginMode } from '../site/visitor.js';
import { allowlistKeyOf, openAreas, rolesOf, type ConsoleAllowlists, type ConsoleArea, type ConsoleRoles } from './access.js';
import type { CallResult, ServiceCalls } from '../site/calls.js';
import type { createPolicyService } from '../../rewards/policy/policy-service.js';
import type { createGovernanceService } from '../../governance/parameters/service.js';
import type { createIntegrityService } from '../../governance/integrity/service.js';
import type { createRewardReviewService } from '../../rewards/review/service.js';
import type { createControlPlaneService } from '../../governance/control-plane/service.js';
import type { createClaimsService } from '../../rewards/claims/service.js';
import type { createBatchFreezeService } from '../../rewards/claims/batch-freeze.js';
import type { createEmergencyService } from '../../governance/parameters/emergency-service.js';
import type { NamesService } from '../../readers/names/service.js';
import type { createQuarantineService } from '../../newsroom/moderation/quarantine-service.js';
import type { createLegalHoldService } from '../../newsroom/moderation/legal-hold-service.js';
import type { createSourceStatusService } from '../../newsroom/moderation/source-status-service.js';
import type { StoriesService } from '../../newsroom/stories/service.js';
import type { createCorrectionsService } from '../../newsroom/corrections/service.js';
import type { createSearchService } from '../../newsroom/search/service.js';
import type { createSettlementService } from '../../rewards/settlements/service.js';

/** The services the console's pages call (the API's routes call the same instances). */
export interface ConsoleServices {
  rewardsPolicy: ReturnType<typeof createPolicyService>;
  governance: ReturnType<typeof createGovernanceService>;
  integrity: ReturnType<typeof createIntegrityService>;
  rewardReview: ReturnType<typeof createRewardReviewService>;
  controlPlane: ReturnType<typeof createControlPlaneService>;
  claims: ReturnType<typeof createClaimsService>;
  claimFreezes: ReturnType<typeof createBatchFreezeService>;
  emergency: ReturnType<typeof createEmergencyService>;
  /** Display names: the console names people by them (their key in the title). */
  names: NamesService;
  /** Bots' names, by id (payout beneficiaries). */
  bots: { names(botIds: Iterable<string>): Promise<Map<string, string>> };
  /** The accounts bound to linked humans (a person beneficiary's display name). */
  humans: { actorsOf(linkedHumanIds: readonly string[]): Promise<Map<string, string[]>> };
  moderation: {
    quarantine: ReturnType<typeof createQuarantineService>;
    holds: ReturnType<typeof createLegalHoldService>;
    sources: ReturnType<typeof createSourceStatusService>;
  };
  /** The stories' public reads, on the primary (as the site's). */
  stories: StoriesService;
  corrections: ReturnType<typeof createCorrectionsService>;
  /** The public search, on the primary (as the site's). */
  search: ReturnType<typeof createSearchService>;
  settlements: ReturnType<typeof createSettlementService>;
  /** Bots' names by bot id (a bot without one is absent): the console names bots by them (their id in the title). */
  botNames(botIds: Iterable<string>): Promise<Map<string, string>>;
}
import { ForbiddenPage } from './views/forbidden.js';

/** What every console route is given. */
export interface ConsoleDeps {
  /** The pages' calls of the services (src/web/site/calls.ts). */
  calls: ServiceCalls;
  /** The services the console's pages act through: the instances the API's routes call. */
  services: ConsoleServices;
  clock: Clock;
  mode: LoginMode;
  lists: ConsoleAllowlists;
  prepare(request: FastifyRequest, reply: FastifyReply): void;
}

/** A console route is kept out of the OpenAPI document: it is a page or a form, not the API. */
export const HIDDEN = { hide: true };

/** The options of a console form's route: same origin and a valid CSRF token, checked before the handler. */
export const formRoute = (app: Pick<FastifyInstance, 'csrfProtection'>) => ({ preHandler: [sameOriginCheck, app.csrfProtection] });

/** One person's visit to a console page or form: who, what they may open, and the calls of the services. */
export interface ConsoleVisit {
  reader: SiteReader;
  actor: HumanActor;
  roles: ConsoleRoles;
  areas: ConsoleArea[];
  lang: Lang;
  calls: ServiceCalls;
}

/**
 * The console's door: a visitor who is not logged in goes to the login page (and comes back); a person whose
 * allowlists do not open `area` (or any area, for the console's home) gets the 403 page, which names the key an
 * operator would put on an allowlist. The API refuses the same person the same things: this only spares them
 * a form that cannot work.
 */
export function enter(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  lang: Lang,
  area?: ConsoleArea,
): ConsoleVisit | null {
  const reader = readerOf(request, deps.clock.now());
  if (!reader) {
    const here = request.method === 'GET' ? request.url : href('/console', lang);
    void reply.redirect(href('/login', lang, { next: here }), 303);
    return null;
  }
  deps.prepare(request, reply);
  const roles = rolesOf(deps.lists, reader);
  const areas = openAreas(roles);
  if (area ? !areas.includes(area) : areas.length === 0) {
    void sendPage(reply.code(403), ForbiddenPage, { lang, areas, allowlistKey: allowlistKeyOf(reader), area: area ?? null });
    return null;
  }
  return { reader, actor: actorOf(reader), roles, areas, lang, calls: deps.calls };
}

/**
 * A console form: the door, the call (one or more calls of the services: ../site/calls.ts), then back to the page with its outcome
 * as a sentence (post, redirect, get).
 */
async function act<T>(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  form: { lang?: Lang; back?: string },
  area: ConsoleArea,
  call: (visit: ConsoleVisit) => Promise<CallResult<T>>,
  done: (body: T) => Flash,
): Promise<FastifyReply> {
  const lang = form.lang ?? 'en';
  const back = consoleBack(form.back, lang);
  const visit = enter(deps, request, reply, lang, area);
  if (!visit) return reply;
  return finish(request, reply, flashOf(await call(visit), done), back, lang);
}

/** `act` for the forms of one area (the plugin's dependencies and the area bound once). */
export function actIn(deps: ConsoleDeps, area: ConsoleArea) {
  return <T>(
    request: FastifyRequest,
    reply: FastifyReply,
    form: { lang?: Lang; back?: string },
    call: (visit: ConsoleVisit) => Promise<CallResult<T>>,
    done: (body: T) => Flash,
  ) => act(deps, request, reply, form, area, call, done);
}

/**
 * `act` for a form whose page to come back to depends on its outcome (a run goes to the settlement it made, a
 * refusal back to the page the form was on): the call answers the flash and, optionally, where to go.
 */
export function performIn(deps: ConsoleDeps, area: ConsoleArea) {
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    form: { lang?: Lang; back?: string },
    call: (visit: ConsoleVisit) => Promise<{ flash: Flash; to?: string }>,
  ): Promise<FastifyReply> => {
    const lang = form.lang ?? 'en';
    const visit = enter(deps, request, reply, lang, area);
    if (!visit) return reply;
    const { flash, to } = await call(visit);
    return finish(request, reply, flash, to ?? consoleBack(form.back, lang), lang);
  };
}

/**
 * The page a console form returns to: a path of this site as the site's forms take it (sitePath, so the same
 * refusals), and of the console once resolved (`/console/../me` is not), else the console's home.
 */
export function consoleBack(back: string | undefined, lang: Lang): string {
  const path = sitePath(back);
  return path !== null && /^\/console(?:[/?#]|$)/.test(path) ? path : href('/console', lang);
}

/**
 * A refusal the console words itself, for a form that cannot become a call of the service as it is (its code is worded
 * by `console.refused.<CODE>`; the status is the one the API would give such a request).
 */
export const refusal = (code: string, status = 400, params?: Record<string, string | number>): CallResult<never> => ({
  ok: false,
  status,
  failure: { code, ...(params ? { params } : {}) },
});

/** A refusal as a flash: its code (worded by `console.refused.<CODE>`) and the values its sentence names. */
export const refused = (message: string, params?: Record<string, string | number>): Flash => ({
  kind: 'refused',
  message,
  ...(params ? { params } : {}),
});

/** A path segment of a console address. */
export const seg = (value: string) => encodeURIComponent(value);

/** The body of a read the page needs; a refused read becomes the site's error page with the API's status. */
export function must<T>(result: CallResult<T>): T {
  if (result.ok) return result.body;
  // a cursor the API did not issue for this list came from the page's address: the error page names it
  if (result.failure.code === 'INVALID_CURSOR') throw invalidCursor(result.failure.message ?? 'The cursor is not valid here');
  throw pageError(result.status, result.failure.code);
}
