import type { TSchema } from '@sinclair/typebox';
import type { Config } from '../../config.js';
import { requireContentAdmin, requireRewardsAdmin } from '../../platform/auth/admin-policy.js';
import { boundHumanTier, countWrite, humanWriteBudget, type FindBoundTier } from '../../platform/auth/human-actor.js';
import type { AdminRole, HumanActor } from '../../platform/auth/types.js';
import { normalizeError } from '../../platform/error-handler.js';
import { AppError, appError, type ErrorDetail } from '../../platform/errors.js';
import type { RateLimitStore } from '../../platform/rate-limit-store.js';
import { createValidatorCompiler } from '../../platform/validation.js';

/**
 * A refusal as a page words it: the error's code (its sentence), the API's message, when to retry and the details
 * the API's error body would carry (which field, why); `params` are the values a refusal the page words itself
 * names (an unknown parameter and the closest known one).
 */
export interface Refusal {
  code: string;
  message?: string;
  retryAfterSeconds?: number;
  details?: ErrorDetail[];
  params?: Record<string, string | number>;
}

/** What a page acts on: the service's answer, or the refusal with the status the API would give it. */
export type CallResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number; failure: Refusal };

/** The person a page acts for: the logged-in account bound to its linked human (or a login's fresh handle). */
export interface Person {
  actorId: string;
  verified: boolean;
  linkedHumanId?: string | undefined;
}

/** What a call of a page must pass before it reaches the service, as the API route's hooks and schema ask. */
export interface CallRules<F extends object = object> {
  /** The allowlist the API route requires (its `config.auth.admin`). */
  admin?: AdminRole;
  /** The API route's body schema and the fields the page sends (the person's are added): the route's own validator checks them. */
  body?: { schema: TSchema; value: F };
}

export interface ServiceCallsDeps {
  config: Config;
  rateLimitStore: RateLimitStore;
  findBoundTier: FindBoundTier;
}

const validatorFor = createValidatorCompiler();

/** The actor fields a signed body carries. */
const personFields = (actor: Person): Person =>
  actor.linkedHumanId === undefined
    ? { actorId: actor.actorId, verified: actor.verified }
    : { actorId: actor.actorId, verified: actor.verified, linkedHumanId: actor.linkedHumanId };

/** Refuses `value` as the API route refuses a body its schema does not take (400 VALIDATION_FAILED, with details). */
function checkBody(schema: TSchema, value: unknown): void {
  const validate = validatorFor({ schema, httpPart: 'body', method: 'POST', url: '' }) as ((data: unknown) => boolean) & {
    errors?: unknown[] | null;
  };
  if (validate(value)) return;
  throw normalizeError(Object.assign(new Error('invalid body'), { validation: validate.errors ?? [], validationContext: 'body' }));
}

/**
 * A service's refusal (an AppError of the catalogue, a 503 of a dependency the service names included) as the
 * page's result; anything else (a fault, not a refusal) goes on to the page's error handler, which hides it behind
 * the 5xx page.
 */
async function outcome<T>(call: () => Promise<T>, status: number): Promise<CallResult<T>> {
  try {
    return { ok: true, status, body: await call() };
  } catch (err) {
    if (!(err instanceof AppError) || err.code === 'INTERNAL_ERROR') throw err;
    const failure: Refusal = { code: err.code, message: err.message };
    if (err.retryAfterSeconds !== undefined) failure.retryAfterSeconds = err.retryAfterSeconds;
    if (err.details !== undefined) failure.details = err.details;
    return { ok: false, status: err.status, failure };
  }
}

/**
 * The one way from a page to the services: in process, through the service functions the API routes call, with
 * what the API applies around them for a human signed request: the person's tier from the identity records
 * (LINKED_HUMAN_NOT_BOUND otherwise), the route's admin allowlist, the route's body schema and, for a write, the
 * per-actor human write budget (the same counter and limit as the API's, so the site is no way around it). Audit,
 * rules and refusals are the services' own. A refusal comes back as a result the page words by its code
 * (docs/adr/0039-one-web-layer.md).
 */
export function createServiceCalls(deps: ServiceCallsDeps) {
  const { config } = deps;

  async function actorOf(person: Person): Promise<HumanActor> {
    const tier = await boundHumanTier(deps.findBoundTier, person.actorId, person.linkedHumanId, person.verified);
    return { kind: 'human', actorId: person.actorId, verified: person.verified, linkedHumanId: person.linkedHumanId, tier };
  }

  /** After the person and the budget, as the API's hook: the allowlist, then the body. */
  function check<F extends object>(actor: HumanActor, rules: CallRules<F>): Person & F {
    if (rules.admin === 'content') requireContentAdmin(config, actor);
    if (rules.admin === 'rewards') requireRewardsAdmin(config, actor);
    // the API's body: the person's fields beside the page's
    const body = { ...personFields(actor), ...rules.body?.value } as Person & F;
    if (rules.body) checkBody(rules.body.schema, body);
    return body;
  }

  /** Refuses a body longer than the API takes (HTTP_BODY_LIMIT_BYTES: 413), before anything else, as the API does. */
  function checkSize(person: Person, rules: CallRules): void {
    if (!rules.body) return;
    const bytes = Buffer.byteLength(JSON.stringify({ ...personFields(person), ...rules.body.value }));
    if (bytes > config.http.bodyLimitBytes) throw appError('PAYLOAD_TOO_LARGE');
  }

  return {
    /** A read as `person` (the API's human-read: tier and allowlist, no write budget). */
    read<T>(person: Person, call: (actor: HumanActor) => Promise<T>, rules: Pick<CallRules, 'admin'> = {}): Promise<CallResult<T>> {
      return outcome(async () => {
        const actor = await actorOf(person);
        check(actor, rules);
        return call(actor);
      }, 200);
    },

    /**
     * A write as `person` (the API's human-write): the body's size, tier and the write budget, the allowlist, the
     * body (the API's, handed to `call`), then the service.
     */
    write<T, F extends object = object>(
      person: Person,
      call: (actor: HumanActor, body: Person & F) => Promise<T>,
      rules: CallRules<F> = {},
    ): Promise<CallResult<T>> {
      return outcome(async () => {
        checkSize(person, rules);
        const [actor] = await Promise.all([actorOf(person), countWrite(deps.rateLimitStore, humanWriteBudget(config, person.actorId))]);
        return call(actor, check(actor, rules));
      }, 202);
    },

    /** A public read: no person, the service's refusals as results. */
    readPublic<T>(call: () => Promise<T>): Promise<CallResult<T>> {
      return outcome(call, 200);
    },
  };
}

export type ServiceCalls = ReturnType<typeof createServiceCalls>;
