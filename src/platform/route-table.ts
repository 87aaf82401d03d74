import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * The longest path parameter any route's schema allows (a followed topic, 400 characters). The router's
 * maxParamLength is the URL limit (HTTP_MAX_URL_BYTES), never less than this: a parameter reaches its route
 * whatever its length, and one longer than its schema allows is 400 VALIDATION_FAILED naming it (`/params/<name>`),
 * as a query parameter would be; only a URL over the limit is 414 URI_TOO_LONG.
 */
export const PATH_PARAM_MAX_LENGTH = 400;

interface PathPattern {
  url: string;
  regex: RegExp;
  methods: Set<string>;
}

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** `/v1/stories/:id/comments` as a regular expression over the raw path. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : escape(segment)))
    .join('/');
  return new RegExp(`^${source}$`);
}

function checkParamLengths(route: RouteOptions) {
  const params = (route.schema?.params ?? {}) as { properties?: Record<string, { maxLength?: number }> };
  for (const [name, schema] of Object.entries(params.properties ?? {}))
    if ((schema.maxLength ?? 0) > PATH_PARAM_MAX_LENGTH)
      throw new Error(
        `${route.url}: path parameter ${name} allows ${schema.maxLength} characters, over PATH_PARAM_MAX_LENGTH (${PATH_PARAM_MAX_LENGTH}); raise it`,
      );
}

export interface RouteTable {
  /** The methods a known path has (the Allow header of a 405), or undefined for a path no route matches. */
  allowedMethods(path: string): string[] | undefined;
}

/**
 * Collects every route's path and methods as it is registered (register this before the routes), so that a
 * request for a known path with a method it does not have is told which methods it has (405 with Allow)
 * instead of 404. Catch-all routes (`*`: Swagger UI's files, the CORS preflight) answer every method they
 * match themselves; their OPTIONS is listed where one applies.
 */
export function registerRouteTable(app: FastifyInstance): RouteTable {
  const patterns = new Map<string, PathPattern>();
  const catchAllMethods = new Set<string>();
  app.addHook('onRoute', (route) => {
    checkParamLengths(route);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url.includes('*')) {
      if (route.url === '*' || route.url === '/*') for (const m of methods) catchAllMethods.add(m);
      return;
    }
    const pattern = patterns.get(route.url) ?? { url: route.url, regex: patternOf(route.url), methods: new Set<string>() };
    for (const m of methods) pattern.methods.add(m);
    if (pattern.methods.has('GET')) pattern.methods.add('HEAD');
    patterns.set(route.url, pattern);
  });
  return {
    allowedMethods(path) {
      const methods = new Set<string>();
      for (const pattern of patterns.values()) if (pattern.regex.test(path)) for (const m of pattern.methods) methods.add(m);
      if (methods.size === 0) return undefined;
      for (const m of catchAllMethods) methods.add(m);
      return [...methods].sort();
    },
  };
}
