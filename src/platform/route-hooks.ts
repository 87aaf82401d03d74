import type { RouteOptions } from 'fastify';

/**
 * Hooks attached to the routes that need them (from an `onRoute` hook) instead of to every request: a global
 * hook runs for every request of every route, a route's hook only for that route's requests. Route hooks run
 * after the global hooks of their kind, in the order the `onRoute` hooks that attached them were registered.
 */

/** Methods that read: no request body, nothing changed. */
export const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The methods a route answers, as a list. */
export function routeMethods(route: RouteOptions): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}

/** A route's hooks of one kind as a list (Fastify accepts a function or a list). */
export function hookList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
