import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createDemoTestApp, testEnv, type TestApp } from '../helpers/app.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';
import { fakeProvider } from '../helpers/world-id-server.js';

/**
 * The production login: World ID's IDKit on the page and the service's remote verifier, played by a local server
 * speaking World ID's verification API. IDKit itself runs in the person's browser with World App; here the
 * page's hidden fields are filled the way its script fills them from IDKit's result.
 */
let provider: Awaited<ReturnType<typeof fakeProvider>>;
let t: TestApp;

before(async () => {
  provider = await fakeProvider();
  t = await createDemoTestApp({
    HUMAN_PROOF_VERIFIER: 'remote',
    WORLDID_APP_ID: 'app_newsroom_test',
    WORLDID_VERIFY_URL: `${provider.base}/api/v2/verify/app_newsroom_test`,
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
  });
});
after(async () => {
  await t.close();
  await provider.close();
});

const idkitResult = (nullifier: string) => ({
  nullifier_hash: nullifier,
  merkle_root: `0x${'3c'.repeat(32)}`,
  proof: `0x${'0f'.repeat(256)}`,
  verification_level: 'orb',
});

test('log in with World ID: the challenge goes to IDKit on the page, its proof to World ID, the person to their account', async () => {
  const person = siteBrowser(t.app);
  const page = await person.get('/login?lang=en');
  assert.match(page.body, /Log in with World ID/);
  assert.doesNotMatch(page.body, /development/i, 'no development login with World ID');
  const dev = await person.post('/login/dev', { _csrf: person.csrf(), lang: 'en', name: 'x' });
  assert.equal(dev.statusCode, 404, 'the development login does not exist here');

  await person.get('/login?lang=en');
  const start = await person.post('/login/start', { _csrf: person.csrf(), lang: 'en', back: '/me?lang=en' });
  assert.equal(start.statusCode, 303);
  assert.equal(start.headers.location, '/login/world-id?lang=en');
  const step = await person.get('/login/world-id?lang=en');
  assert.equal(step.statusCode, 200);
  const action = /data-action="([^"]+)"/.exec(step.body)?.[1];
  const signal = /data-signal="(login:[^"]+)"/.exec(step.body)?.[1];
  assert.equal(action, t.config.worldIdLoginAction);
  assert.ok(signal, 'the challenge signal is handed to IDKit');
  assert.match(step.body, /data-app-id="app_newsroom_test"/);
  const scripts = [...step.body.matchAll(/<script src="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  assert.ok(
    scripts.some((s) => s.startsWith('/assets/idkit-')),
    'IDKit is served from this site',
  );
  for (const src of scripts) {
    const asset = await person.get(src);
    assert.equal(asset.statusCode, 200, src);
  }
  const idkit = await person.get(scripts.find((s) => s.startsWith('/assets/idkit-'))!);
  assert.match(idkit.body, /IDKit/);
  const csp = String(step.headers['content-security-policy']);
  assert.match(csp, /script-src 'self'(;|$)/, 'scripts from this site only');
  assert.match(csp, /connect-src 'self' https:\/\/bridge\.worldcoin\.org/);

  const nullifier = `0x${'5e'.repeat(32)}`;
  const finish = await person.post('/login/finish', { _csrf: person.csrf(), lang: 'en', ...idkitResult(nullifier) });
  assert.equal(finish.statusCode, 303);
  // a first login: the name page first, then the page the person came from
  assert.equal(finish.headers.location, `/me/name?lang=en&next=${encodeURIComponent('/me?lang=en')}`);
  const sent = provider.requests.at(-1)!;
  assert.equal(sent.url, '/api/v2/verify/app_newsroom_test');
  assert.equal(sent.body.action, t.config.worldIdLoginAction);
  assert.equal(sent.body.nullifier_hash, nullifier);
  const namePage = await person.get(String(finish.headers.location));
  assert.equal(namePage.statusCode, 200);
  assert.equal(flashOf(namePage.body), 'You are logged in.');
  const me = await person.get('/me?lang=en');
  assert.equal(me.statusCode, 200);

  // World ID refuses the next proof: the refusal is a sentence on the login page
  const other = siteBrowser(t.app, '192.0.2.7');
  await other.get('/login?lang=en');
  await other.post('/login/start', { _csrf: other.csrf(), lang: 'en' });
  await other.get('/login/world-id?lang=en');
  provider.answer({ status: 400, body: { code: 'invalid_proof', detail: 'The proof is invalid.', attribute: null } });
  const refused = await other.post('/login/finish', { _csrf: other.csrf(), lang: 'en', ...idkitResult(`0x${'6f'.repeat(32)}`) });
  provider.answer({ status: 200, body: { success: true } });
  assert.equal(refused.statusCode, 303);
  const again = await other.get(String(refused.headers.location));
  assert.equal(flashOf(again.body), 'The World ID proof did not verify: try again.');
});

test('PUBLIC_DEPLOYMENT=1 refuses the development verifier, so no development login can exist there', () => {
  const fleet = {
    PUBLIC_DEPLOYMENT: '1',
    REDIS_URL: 'redis://127.0.0.1:6379',
    NONCE_STORE_DRIVER: 'redis',
    RATE_LIMIT_STORE_DRIVER: 'redis',
  };
  assert.throws(() => loadConfig(testEnv({ ...fleet, HUMAN_PROOF_VERIFIER: 'dev' })), /HUMAN_PROOF_VERIFIER: dev is refused/);
  assert.equal(loadConfig(testEnv({ ...fleet, WORLDID_APP_ID: 'app_x' })).humanProofVerifier, 'remote');
});
