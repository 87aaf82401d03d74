import type { GovernanceTables } from '../tables.js';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import type { Queryable } from '../../platform/db/database.js';
import { PARAMETER_DEFAULTS, readParameters, type Parameters } from './parameters.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The governance parameters in force, read from the database at most once per request. */
    governance(): Promise<Parameters>;
  }
}

/**
 * The defaults of a deployment: the registry's, with the agent write limits taken from the configuration
 * (RATE_LIMIT_*). A governance proposal that sets `rateLimits.*` overrides them.
 */
export function deploymentDefaults(config: Config): Parameters {
  return {
    ...PARAMETER_DEFAULTS,
    'rateLimits.unverifiedWritesPerMinute': config.rateLimits.unverifiedWritesPerMinute,
    'rateLimits.verifiedWritesPerMinute': config.rateLimits.verifiedWritesPerMinute,
  };
}

const plugin: FastifyPluginAsync<{ db: Queryable<GovernanceTables>; config: Config }> = async (app, { db, config }) => {
  const defaults = deploymentDefaults(config);
  const memo = new WeakMap<object, Promise<Parameters>>();
  app.decorateRequest('governance', function governance(this: object) {
    let read = memo.get(this);
    if (!read) {
      read = readParameters(db, defaults);
      memo.set(this, read);
    }
    return read;
  });
};

/** `request.governance()`: one database read of the parameters per request, shared by the auth hook and the handler. */
export const requestParametersPlugin = fp(plugin, { name: 'governance-parameters' });
