import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { linkedHumanIdOf } from '../../src/identity/humans/proof-fields.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';
import { fakeProvider } from '../helpers/world-id-server.js';

/**
 * The console with World ID logins (the production verifier, played by a local server speaking World ID's
 * verification API): a ratification and a control-plane approval each ask for a World ID proof in the page,
 * bound to that proposal's or that request's action string, and the proof IDKit returns is verified for exactly
 * that action.
 */
let provider: Awaited<ReturnType<typeof fakeProvider>>;
let t: TestApp;
const nullifiers = { ana: `0x${'a1'.repeat(32)}`, ben: `0x${'b2'.repeat(32)}`, cai: `0x${'c3'.repeat(32)}` };
const keys = Object.fromEntries(Object.entries(nullifiers).map(([name, n]) => [name, linkedHumanIdOf('world_id', n)]));

before(async () => {
  provider = await fakeProvider();
  t = await createTestApp({
    HUMAN_PROOF_VERIFIER: 'remote',
    WORLDID_APP_ID: 'app_newsroom_test',
    WORLDID_VERIFY_URL: `${provider.base}/api/v2/verify/app_newsroom_test`,
    FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED: '1',
    CONTENT_ADMIN_IDS: Object.values(keys).join(','),
    CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: Object.values(keys).join(','),
  });
});
after(async () => {
  await t.close();
  await provider.close();
});

/** What IDKit hands the page after World App proved `nullifier`'s person (the page's script fills these fields). */
const idkit = (nullifier: string) => ({
  nullifier_hash: nullifier,
  merkle_root: `0x${'3c'.repeat(32)}`,
  proof: `0x${'0f'.repeat(256)}`,
  verification_level: 'orb',
});

async function worldIdLogin(name: keyof typeof nullifiers, address: string) {
  const person = siteBrowser(t.app, address);
  await person.get('/login?lang=en');
  await person.post('/login/start', { _csrf: person.csrf(), lang: 'en', back: '/console?lang=en' });
  await person.get('/login/world-id?lang=en');
  const done = await person.post('/login/finish', { _csrf: person.csrf(), lang: 'en', ...idkit(nullifiers[name]) });
  // a first login chooses the name the console shows, then goes on to the console
  assert.equal(done.headers.location, `/me/name?lang=en&next=${encodeURIComponent('/console?lang=en')}`);
  await person.chooseName(`${name.charAt(0).toUpperCase()}${name.slice(1)}`, '/console?lang=en');
  return person;
}

/** Sends the form at `action` from `from` with the fields IDKit filled for the page's proof (a fresh proof each time). */
async function withProof(
  person: ReturnType<typeof siteBrowser>,
  from: string,
  action: string,
  fields: Record<string, string>,
  nullifier: string,
) {
  const page = await person.get(from);
  const asked = [...page.body.matchAll(/data-idkit-action="([^"]+)"/g)].map((m) => m[1]!);
  const posted = await person.post(action, { _csrf: person.csrf(), lang: 'en', back: from, prove: '1', ...fields, ...idkit(nullifier) });
  assert.equal(posted.statusCode, 303);
  return { asked, page: await person.get(String(posted.headers.location)) };
}

test('ratifying and approving ask for World ID in the page, bound to the proposal and the request', async () => {
  const ana = await worldIdLogin('ana', '198.51.100.1');
  const home = await ana.get('/console?lang=en');
  assert.equal(home.statusCode, 200);
  const gov = await ana.get('/console/governance?lang=en');
  assert.match(String(gov.headers['content-security-policy']), /bridge\.worldcoin\.org/, 'IDKit may reach World ID from console pages');
  assert.ok([...gov.body.matchAll(/<script src="(\/assets\/idkit-[^"]+)"/g)].length, 'IDKit is on the page');
  const name = /<code>([a-zA-Z.]+)<\/code>/.exec(gov.body)![1]!;
  await ana.post('/console/governance/proposals', {
    _csrf: ana.csrf(),
    lang: 'en',
    back: '/console/governance?lang=en',
    title: 'Tune',
    rationale: 'Why',
    changes: `${name} = 5`,
  });
  const draft = /Draft ([A-Za-z0-9_-]+) is created/.exec(flashOf((await ana.get('/console/governance?lang=en')).body) ?? '')![1]!;

  const ratified = await withProof(
    ana,
    '/console/governance?lang=en',
    `/console/governance/proposals/${draft}/ratify`,
    { decision: 'RATIFY' },
    `0x${'d4'.repeat(32)}`,
  );
  assert.ok(ratified.asked.includes(`governance_ratify:${draft}`), "the page asks IDKit for this proposal's action");
  assert.equal(provider.requests.at(-1)!.body.action, `governance_ratify:${draft}`, 'World ID verified the proof for that action');
  assert.equal(flashOf(ratified.page.body), `Proposal ${draft} is ratified.`);

  const filed = await ana.post('/console/control-plane/requests', {
    _csrf: ana.csrf(),
    lang: 'en',
    back: '/console/control-plane?lang=en',
    action: 'governance.activate',
    target: draft,
    payload: JSON.stringify({ changes: { [name]: 5 } }),
    reason: 'Tune',
  });
  const id = /Request (cpr_[A-Za-z0-9_-]+) is filed/.exec(flashOf((await ana.get(String(filed.headers.location))).body) ?? '')![1]!;

  const ben = await worldIdLogin('ben', '198.51.100.2');
  const approved = await withProof(
    ben,
    `/console/control-plane/${id}?lang=en`,
    `/console/control-plane/${id}/approve`,
    {},
    `0x${'e5'.repeat(32)}`,
  );
  assert.deepEqual(approved.asked, [`control_plane_approve:${id}`], 'the approval asks IDKit for exactly this request');
  assert.equal(provider.requests.at(-1)!.body.action, `control_plane_approve:${id}`);
  assert.equal(flashOf(approved.page.body), 'Your approval is recorded (1 of 2).');

  // World ID refuses a proof: the refusal is a sentence, nothing is approved
  const cai = await worldIdLogin('cai', '198.51.100.3');
  provider.answer({ status: 400, body: { code: 'invalid_proof', detail: 'The proof is invalid.', attribute: null } });
  const refused = await withProof(
    cai,
    `/console/control-plane/${id}?lang=en`,
    `/console/control-plane/${id}/approve`,
    {},
    `0x${'f6'.repeat(32)}`,
  );
  provider.answer({ status: 200, body: { success: true } });
  assert.equal(flashOf(refused.page.body), 'The World ID proof did not verify: make it again.');
  assert.match(refused.page.body, /\(1 \/ 2\)/);
});
