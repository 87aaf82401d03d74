import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
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
    m[1]!
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>'),
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

  test('a status is one of its list, never replaced by the default; a cursor is a cursor, named when the API refuses it', async () => {
    const invalid = (name: string, value: string) => `The parameter “${name}” has a value this page does not accept: “${value}”.`;
    const notHere = 'The parameter “cursor” is not valid here: it belongs to another page or another search.';
    for (const [browser, url, problem] of [
      [content, '/console/moderation?lang=en&status=open', invalid('status', 'open')],
      [content, '/console/moderation/legal-holds?lang=en&status=LIFTED', invalid('status', 'LIFTED')],
      [content, '/console/control-plane?lang=en&status=DONE', invalid('status', 'DONE')],
      [rewards, '/console/rewards/settlements?lang=en&status=PAID', invalid('status', 'PAID')],
      [rewards, '/console/rewards/settlements/se_anything?lang=en&status=paid', invalid('status', 'paid')],
      [content, '/console/moderation?lang=en&cursor=not-a-cursor', notHere],
      [content, `/console/moderation/legal-holds?lang=en&cursor=${'A'.repeat(1100)}.AAAAAAAAAAAAAAAA`, notHere],
      // the form of a cursor, but not one the API issued for this list: the API's refusal names it too
      [content, '/console/control-plane?lang=en&cursor=W10.AAAAAAAAAAAAAAAA', notHere],
      [content, '/console/moderation/stories/st_anything00000000?lang=en&event=<b>', invalid('event', '<b>')],
    ] as const)
      assert.deepEqual(refused(await browser.get(url), 'en', url), [problem], url);
    const site = await t.app.inject(`/search?lang=es&cursor=${'A'.repeat(1100)}.AAAAAAAAAAAAAAAA`);
    assert.deepEqual(refused(site, 'es', 'search'), ['El parámetro «cursor» no es válido aquí: pertenece a otra página u otra búsqueda.']);
  });

  test('an amount of orbs is decimal digits, a claim window a number of days (they went on to the API as any text)', async () => {
    const preview = await rewards.get('/console/rewards/settlements/preview?lang=fr&totalPoolOrbs=1e3');
    assert.deepEqual(refused(preview, 'fr', 'preview'), [
      'Le paramètre « totalPoolOrbs » a une valeur que cette page n’accepte pas : « 1e3 ».',
    ]);
    assert.equal((await rewards.get('/console/rewards/settlements/preview?lang=fr&totalPoolOrbs=')).statusCode, 303);
    await rewards.get('/console/rewards/claims?lang=en');
    const finalize = await rewards.post('/console/rewards/claims/finalize', {
      _csrf: rewards.csrf(),
      lang: 'en',
      claimWindowDays: '9'.repeat(30),
    });
    assert.deepEqual(refused(finalize, 'en', 'finalize'), [
      `The field “claimWindowDays” of the form has a value this page does not accept: “${'9'.repeat(30)}”.`,
    ]);
    const run = await rewards.post('/console/rewards/settlements/run', {
      _csrf: rewards.csrf(),
      lang: 'en',
      totalPoolOrbs: '-5',
      ...Object.fromEntries(['policyVersion', 'pool', 'escrow', 'paid', 'storyCount', 'payoutCount'].map((k) => [k, '1'])),
    });
    assert.deepEqual(refused(run, 'en', 'run'), ['The field “totalPoolOrbs” of the form has a value this page does not accept: “-5”.']);
  });

  test('a page to come back to is an address as a browser sends it (a character past Latin-1 in a redirect was a 500)', async () => {
    const reader = siteBrowser(t.app, '203.0.113.13');
    await reader.devLogin('returning reader');
    await reader.get('/me?lang=en');
    for (const back of ['/漢字', '/\u0001', '/😀', '/a b']) {
      const cleared = await reader.post('/me/history/clear', { _csrf: reader.csrf(), lang: 'en', confirm: '1', back });
      assert.deepEqual(
        refused(cleared, 'en', JSON.stringify(back)),
        [`The field “back” of the form has a value this page does not accept: “${back}”.`],
        JSON.stringify(back),
      );
    }
    const encoded = await reader.post('/me/history/clear', {
      _csrf: reader.csrf(),
      lang: 'en',
      confirm: '1',
      back: '/search?lang=en&q=%E6%BC%A2',
    });
    assert.equal(encoded.statusCode, 303);
    assert.equal(encoded.headers.location, '/search?lang=en&q=%E6%BC%A2');

    await content.get('/console/audit?lang=en');
    const verify = await content.post('/console/audit/verify', { _csrf: content.csrf(), lang: 'en', back: '/console/audit\u0085' });
    assert.equal(verify.statusCode, 400, verify.body.slice(0, 200));
    const login = await t.app.inject(`/login?lang=de&next=${encodeURIComponent('/stories/漢')}`);
    assert.deepEqual(refused(login, 'de', 'login'), ['Der Parameter „next“ hat einen Wert, den diese Seite nicht annimmt: „/stories/漢“.']);
  });

  test("a refused form is the 400 page in the form's language, naming each field that was wrong, missing or unknown", async () => {
    await content.get('/console/moderation/legal-holds?lang=de');
    const hold = await content.post('/console/moderation/legal-holds', {
      _csrf: content.csrf(),
      lang: 'de',
      storyId: 'st_not/an id',
      colour: 'blue',
    });
    assert.deepEqual(refused(hold, 'de', 'legal hold').sort(), [
      'Das Feld „storyId“ des Formulars hat einen Wert, den diese Seite nicht annimmt: „st_not/an id“.',
      'Dem Formular fehlt das Feld „reason“.',
      '„colour“ ist kein Feld dieses Formulars.',
    ]);
    const reader = siteBrowser(t.app, '203.0.113.12');
    await reader.devLogin('reader');
    await reader.get('/me?lang=fr');
    const comment = await reader.post('/stories/st_anything00000000/comment', { _csrf: reader.csrf(), lang: 'fr', body: 'x'.repeat(5001) });
    assert.deepEqual(refused(comment, 'fr', 'comment'), [
      `Le champ « body » du formulaire a une valeur que cette page n’accepte pas : « ${'x'.repeat(80)}… ».`,
    ]);
  });

  test("any refusal of a form speaks the form's language: a bad CSRF token, a story that does not exist", async () => {
    const forged = await content.post('/console/moderation/stories/st_anything00000000/retraction', {
      _csrf: 'not-the-token',
      lang: 'es',
      reason: 'a reason',
    });
    assert.equal(forged.statusCode, 403);
    assert.ok(forged.body.startsWith('<!doctype html><html lang="es">'), forged.body.slice(0, 200));
    await content.get('/console?lang=zh-Hans');
    const unknown = await content.post('/console/moderation/stories/st_anything00000000/correction', {
      _csrf: content.csrf(),
      lang: 'zh-Hans',
      draft: 'cd_anything',
    });
    assert.equal(unknown.statusCode, 404);
    assert.ok(unknown.body.startsWith('<!doctype html><html lang="zh-Hans">'), unknown.body.slice(0, 200));
  });
});
