import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/**
 * A browser over `inject` for the reader site's forms: it keeps the cookies the site sets (and drops the ones it
 * clears), sends what a same-site form post sends, and reads the CSRF token off the page it is on.
 */
export function siteBrowser(app: FastifyInstance, address = '203.0.113.10') {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const keep = (res: LightMyRequestResponse) => {
    for (const cookie of res.cookies as Array<{ name: string; value: string; expires?: Date; maxAge?: number }>) {
      const gone = cookie.value === '' || cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (gone) jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    return res;
  };
  let lastPage = '';

  const browser = {
    jar,
    async get(url: string, headers: Record<string, string> = {}) {
      const res = keep(await app.inject({ method: 'GET', url, remoteAddress: address, headers: { cookie: cookieHeader(), ...headers } }));
      if (String(res.headers['content-type']).startsWith('text/html')) lastPage = res.body;
      return res;
    },
    /**
     * A form post as a browser sends it from this site (fields as pairs when one repeats); `headers` overrides
     * (a forged request, say; null removes).
     */
    async post(url: string, fields: Record<string, string> | [string, string][], overrides: Record<string, string | null> = {}) {
      const headers: Record<string, string> = {
        cookie: cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
        origin: 'http://localhost:80',
      };
      for (const [name, value] of Object.entries(overrides)) {
        if (value === null) delete headers[name];
        else headers[name] = value;
      }
      return keep(
        await app.inject({
          method: 'POST',
          url,
          remoteAddress: address,
          headers,
          payload: new URLSearchParams(fields).toString(),
        }),
      );
    },
    /** The CSRF token of the forms on the last page this browser opened. */
    csrf(): string {
      const token = /name="_csrf" value="([^"]+)"/.exec(lastPage)?.[1];
      assert.ok(token, 'the page carries a CSRF token');
      return token;
    },
    /** Posts a form from the page at `from` (opened first, for its token) and follows the redirect back. */
    async submit(from: string, action: string, fields: Record<string, string>) {
      await browser.get(from);
      const posted = await browser.post(action, { _csrf: browser.csrf(), lang: 'en', back: from, ...fields });
      assert.equal(posted.statusCode, 303, `${action}: ${posted.body.slice(0, 300)}`);
      const page = await browser.get(String(posted.headers.location));
      return { posted, page };
    },
    /**
     * Chooses the display name `name` on the name page, which then goes on to `next` (a first login lands on it;
     * a reader without a name is sent to it before commenting).
     */
    async chooseName(name: string, next = '/?lang=en') {
      await browser.get(`/me/name?lang=en&next=${encodeURIComponent(next)}`);
      const posted = await browser.post('/me/name', { _csrf: browser.csrf(), lang: 'en', back: next, name });
      assert.equal(posted.statusCode, 303, posted.body.slice(0, 300));
      assert.equal(posted.headers.location, next);
      return posted;
    },
    /** Logs in with the development login as `name` (a first login lands on the name page: see chooseName). */
    async devLogin(name: string) {
      await browser.get('/login?lang=en');
      const posted = await browser.post('/login/dev', { _csrf: browser.csrf(), lang: 'en', back: '/?lang=en', name });
      assert.equal(posted.statusCode, 303, posted.body.slice(0, 300));
      return posted;
    },
  };
  return browser;
}

/** The text of a page's flash message (the outcome of the last form), or null. */
export const flashOf = (body: string) => /<p class="flash [a-z]+" role="[a-z]+">([^<]*)<\/p>/.exec(body)?.[1] ?? null;
