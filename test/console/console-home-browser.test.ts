import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type Browser, checkPage, devLogIn, needsChromium, openBrowser } from '../site/browser.js';

/**
 * The console's home and the control plane in real browsers, one person each: ana (at a desktop's width) files
 * a ratified proposal's activation, ben (on a phone, 390 px) finds it on his home and in the masthead, reads it in
 * words and approves it, cai (desktop) gives the last approval and activates the proposal from the request's own
 * page. Every page passes checkPage (axe-core, no untranslated label, nothing wider than the screen), and on the
 * phone no value, area or filter is clipped in a scrolling region and no heading is squeezed to a letter a line.
 */
const skip = needsChromium();
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const people = Object.fromEntries(['ana', 'ben', 'cai'].map((name) => [name, devLinkedHumanId(name)]));
let t: TestApp;
let base: string;
const browsers: Record<string, Browser> = {};

before(async () => {
  if (skip) return;
  t = await createTestApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED: '1',
    CONTENT_ADMIN_IDS: [people.ana, people.ben, people.cai].join(','),
    CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: [people.ana, people.ben, people.cai].join(','),
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
  });
  base = await t.listen();
  browsers.ana = await openBrowser(DESKTOP);
  browsers.ben = await openBrowser(PHONE);
  browsers.cai = await openBrowser(DESKTOP);
});

after(async () => {
  if (skip) return;
  for (const browser of Object.values(browsers)) await browser.close();
  await t.close();
});

const passes = async (who: Browser, name: string) => assert.deepEqual(await checkPage(who, name), [], `page ${name}`);
const flash = (who: Browser) => who.page.locator('.flash').innerText();

/** Logs in with the development login on the login page, then opens `url`. */
async function logIn(who: Browser, name: string, url: string) {
  await who.page.goto(`${base}/login?lang=en`);
  await devLogIn(who.page, name);
  await who.page.goto(`${base}${url}`);
}

/**
 * What a phone must not do: a region of main that scrolls sideways (a value cut at its edge) or a heading, term
 * or value so narrow that its words break a letter a line.
 */
async function fitsThePhone(who: Browser): Promise<string[]> {
  return who.page.evaluate(() => {
    const problems: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(
      'nav.sections ul, ul.chips, main, main ol.requests > li, main ul.changes li, main dl.facts, main ul.waiting li',
    )) {
      if (el.scrollWidth > el.clientWidth + 1) {
        // the element that reaches furthest right, to name it
        const reach = (e: Element) => e.getBoundingClientRect().left + e.scrollWidth;
        const wide = [...el.querySelectorAll('*')].sort((a, b) => reach(b) - reach(a))[0];
        const what = wide ? wide.outerHTML.slice(0, 120) : '?';
        problems.push(`${el.tagName.toLowerCase()}.${el.className} scrolls: ${el.scrollWidth} > ${el.clientWidth} (${what})`);
      }
    }
    for (const el of document.querySelectorAll<HTMLElement>('main h1, main h2, main dt, main dd, main .values')) {
      const size = parseFloat(getComputedStyle(el).fontSize);
      const lines = el.getBoundingClientRect().height / (size * 1.2);
      const words = (el.innerText.trim().match(/\S+/g) ?? []).length;
      if (el.innerText.trim().length > 3 && lines > Math.max(3, words * 1.5))
        problems.push(
          `${el.tagName.toLowerCase()} "${el.innerText.trim().slice(0, 40)}" takes ${Math.round(lines)} lines for ${words} words`,
        );
    }
    return problems;
  });
}

test('what waits for each admin, in words, approved and used from the request itself, at 390 and 1280 px', { skip }, async () => {
  const ana = browsers.ana!;
  await logIn(ana, 'ana', '/console?lang=en');
  assert.equal(await ana.page.locator('#waiting').innerText(), 'Nothing waits for you');
  await passes(ana, 'console-home-nothing');

  // a proposal, ratified, and the request that activates it
  await ana.page.goto(`${base}/console/governance?lang=en`);
  await ana.page.getByLabel('Title', { exact: true }).fill('Stricter graduation');
  await ana.page.getByLabel('Rationale').fill('More eyes before a story graduates');
  await ana.page.getByLabel('Changes', { exact: true }).fill('consensus.graduationMinAttestations = 6');
  await ana.page.getByRole('button', { name: 'Create the draft' }).click();
  const proposal = /Draft (\S+) is created/.exec(await flash(ana))?.[1];
  assert.ok(proposal, await flash(ana));
  await ana.page.goto(`${base}/console?lang=en`);
  assert.equal(await ana.page.locator('#waiting').innerText(), '1 thing waits for you');
  assert.match(await ana.page.locator('[data-kind="toRatify"]').innerText(), /Proposals waiting to be ratified\s+1/);
  await ana.page.goto(`${base}/console/governance?lang=en`);
  await ana.page.getByLabel('Prove with World ID that I am the person approving this').first().check();
  await ana.page.getByRole('button', { name: 'Ratify', exact: true }).first().click();
  assert.equal(await flash(ana), `Proposal ${proposal} is ratified.`);
  await ana.page.getByRole('button', { name: 'File the control-plane request to activate it' }).first().click();
  const id = /Request (cpr_[A-Za-z0-9_-]+) is filed/.exec(await flash(ana))?.[1];
  assert.ok(id, await flash(ana));
  await passes(ana, 'console-control-plane-filed');

  // ben, on a phone: his home and the masthead say what waits for him; the request reads in words
  const ben = browsers.ben!;
  await logIn(ben, 'ben', '/?lang=en');
  assert.equal(await ben.page.getByRole('link', { name: 'Newsroom console (2)' }).count(), 1, 'the masthead carries the total');
  await ben.page.getByRole('link', { name: 'Newsroom console (2)' }).click();
  assert.equal(await ben.page.locator('#waiting').innerText(), '2 things wait for you');
  await passes(ben, 'console-home-phone');
  assert.deepEqual(await fitsThePhone(ben), []);
  await ben.page.getByRole('link', { name: 'Control-plane requests waiting for your approval' }).click();
  await passes(ben, 'console-control-plane-phone');
  assert.deepEqual(await fitsThePhone(ben), []);
  const listed = ben.page.locator('li.request.waiting');
  assert.equal(await listed.count(), 1);
  assert.match(await listed.innerText(), /Waiting for you/);
  assert.match(await listed.innerText(), /5 → 6/);
  await listed.getByRole('link', { name: `Activate proposal ${proposal}` }).click();
  const changes = await ben.page.locator('ul.changes').innerText();
  assert.match(changes, /Attestation weight the graduation gate needs/);
  assert.match(changes, /5 → 6/);
  assert.match(changes, /allowed 1 to 1000/);
  assert.equal(await ben.page.locator(`span.person[title="${people.ana}"]`).count(), 1, 'the requester, with their key in the title');
  await passes(ben, 'console-request-phone');
  assert.deepEqual(await fitsThePhone(ben), []);
  await ben.page.getByLabel('Prove with World ID that I am the person approving this').check();
  await ben.page.getByRole('button', { name: 'Approve', exact: true }).click();
  assert.equal(await flash(ben), 'Your approval is recorded (1 of 2).');
  assert.equal(await ben.page.getByText('Waiting for you').count(), 0);
  await passes(ben, 'console-request-approved-phone');
  assert.deepEqual(await fitsThePhone(ben), []);

  // cai, at a desktop: the last approval executes it, and the proposal is activated from the request's page
  const cai = browsers.cai!;
  await logIn(cai, 'cai', '/console?lang=en');
  await cai.page.getByRole('link', { name: 'Control-plane requests waiting for your approval' }).click();
  await cai.page.getByRole('link', { name: `Activate proposal ${proposal}` }).click();
  await cai.page.getByLabel('Prove with World ID that I am the person approving this').check();
  await cai.page.getByRole('button', { name: 'Approve and execute' }).click();
  assert.equal(await flash(cai), 'Your approval is recorded (2 of 2): the request is approved and ready to use.');
  await passes(cai, 'console-request-executed');
  await cai.page.getByRole('button', { name: `Activate proposal ${proposal}` }).click();
  assert.equal(await flash(cai), `Proposal ${proposal} is active: its values are in force.`);
  await passes(cai, 'console-request-used-desktop');

  await ben.page.goto(`${base}/console?lang=en`);
  assert.equal(await ben.page.locator('#waiting').innerText(), 'Nothing waits for you');
  assert.equal(await ben.page.getByRole('link', { name: 'Newsroom console', exact: true }).count(), 1);
});
