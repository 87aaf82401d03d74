import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { devLinkedHumanId } from '../../src/readers/site/dev-proof.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { siteBrowser } from '../helpers/site-browser.js';

/**
 * What the console's and the site's queries and forms accept is what their schemas say: a value outside them is
 * the error page with status 400, in the page's language, naming the parameter or field (never a 500, never a
 * JSON body, never a value quietly replaced by another).
 */

const ana = { name: 'ana', key: devLinkedHumanId('ana') };
const rex = { name: 'rex', key: devLinkedHumanId('rex') };

/** The problems the error page lists, as text. */
const problemsOf = (body: string) =>
  [...(/<ul class="problems">([\s\S]*?)<\/ul>/.exec(body)?.[1] ?? '').matchAll(/<li>([^<]*)<\/li>/g)].map((m) =>
    m[1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
  );

function refused(res: LightMyRequestResponse, lang: string, what: string) {
  assert.equal(res.statusCode, 400, `${what}: ${res.body.slice(0, 300)}`);
  assert.match(String(res.headers['content-type']), /^text\/html/, what);
  assert.ok(res.body.startsWith(`<!doctype html><html lang="${lang}">`), `${what}: in ${lang}`);
  return problemsOf(res.body);
}

describe('the console and the site refuse what their schemas do not accept with the 400 page', () => {
  let t: TestApp;
  let content: ReturnType<typeof siteBrowser>;
  let rewards: ReturnType<typeof siteBrowser>;

  before(async () => {
    t = await createTestApp({
      HUMAN_PROOF_VERIFIER: 'dev',
      CONTENT_ADMIN_IDS: ana.key,
      REWARDS_ADMIN_IDS: rex.key,
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
    });
    content = siteBrowser(t.app);
    await content.devLogin(ana.name);
    rewards = siteBrowser(t.app, '203.0.113.11');
    await rewards.devLogin(rex.name);
  });
  after(() => t.close());

  test("the webhook log's `before` is a delivery's seq: digits within bigint's range (past it, the database refused it: 500)", async () => {
    for (const before of ['99999999999999999999', '9223372036854775808', '1'.repeat(19), '-1', '1e3', '01', ' 1']) {
      const page = await content.get(`/console/moderation/webhooks?lang=de&before=${encodeURIComponent(before)}`);
      assert.deepEqual(
        refused(page, 'de', before),
        [`Der Parameter „before“ hat einen Wert, den diese Seite nicht annimmt: „${before}“.`],
        before,
      );
    }
    for (const before of ['9'.repeat(18), '1', '']) {
      const page = await content.get(`/console/moderation/webhooks?lang=en&before=${before}`);
      assert.equal(page.statusCode, 200, `${before}: ${page.body.slice(0, 300)}`);
    }
  });
});
