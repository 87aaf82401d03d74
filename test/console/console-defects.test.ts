import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PARAMETER_NAMES, parameterSpec } from '../../src/governance/parameters/parameters.js';
import { LANGS } from '../../src/platform/schemas.js';
import { closestParameter } from '../../src/web/console/governance-routes.js';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { t as word, WORDS, type WordKey } from '../../src/web/words/index.js';
import { seedActivity } from '../governance/support.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * The console's small defects, each held by a test: the governance form's unknown parameter (named, with the
 * closest known one, the form kept), the health signals measured now, parameter descriptions and the site's
 * name in every language, and an unknown review case said as such.
 */
describe('console: governance form, health signals, words and review cases', () => {
  let t: TestApp;
  const ana = 'ana';
  before(async () => {
    t = await createTestApp({
      HUMAN_PROOF_VERIFIER: 'dev',
      CONTENT_ADMIN_IDS: devLinkedHumanId(ana),
      REWARDS_ADMIN_IDS: devLinkedHumanId(ana),
      RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '100000',
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
    });
    await seedActivity(t.db, { flagsLastHour: 12 });
  });
  after(async () => t.close());

  const admin = async () => {
    const browser = siteBrowser(t.app);
    await browser.devLogin(ana);
    return browser;
  };
  const textarea = (body: string, id: string) =>
    new RegExp(`<textarea id="${id}"[^>]*>([^<]*)</textarea>`).exec(body)?.[1]?.replace(/&amp;/g, '&') ?? null;

  test('the changes hint names a real parameter, in every language', () => {
    for (const lang of LANGS) {
      const name = /[a-z]+\.[A-Za-z]+/.exec(WORDS[lang]['console.governance.changesHint'])?.[0];
      assert.ok(name && (PARAMETER_NAMES as string[]).includes(name), `${lang}: ${name}`);
    }
  });

  test('an unknown parameter is refused with its name and the closest known one, and the form keeps what was typed', async () => {
    const browser = await admin();
    const typed = { title: 'Raise graduation', rationale: 'Election week', changes: 'consensus.graduateMinAttestations = 4' };
    const { page } = await browser.submit('/console/governance?lang=en', '/console/governance/proposals', typed);
    assert.equal(
      flashOf(page.body),
      '“consensus.graduateMinAttestations” is not a governance parameter. The closest one is “consensus.graduationMinAttestations”.',
    );
    assert.match(page.body, /<input id="proposal-title" name="title"[^>]*value="Raise graduation"/);
    assert.equal(textarea(page.body, 'proposal-rationale'), 'Election week');
    assert.equal(textarea(page.body, 'proposal-changes'), typed.changes);
    const again = await browser.get('/console/governance?lang=en');
    assert.equal(textarea(again.body, 'proposal-changes'), '', 'the draft comes back once');
    assert.equal(closestParameter('rewardWindowHour'), 'rewardWindowHours');
    assert.equal(closestParameter('emergency.flagSurgeMinFlag'), 'emergency.flagSurgeMinFlags');
  });

  test('the health signals table shows the signals measured now, without an emergency', async () => {
    const browser = await admin();
    const page = await browser.get('/console/governance?lang=en');
    assert.equal(page.statusCode, 200);
    const table = page.body.slice(
      page.body.indexOf('<caption>Health signals'),
      page.body.indexOf('</table>', page.body.indexOf('<caption>Health signals')),
    );
    const rows = [...table.matchAll(/<tr><th scope="row">([^<]+)<\/th><td class="num">([^<]*)<\/td>/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(
      rows.map(([name]) => name),
      ['Surge of flags', 'Spike of objections', 'Payout anomalies', 'Collusion (cartel analysis)'],
    );
    assert.deepEqual(rows[0], ['Surge of flags', '12'], 'the flags of the last hour, counted now');
  });

  test('parameter descriptions and the site name follow the page language', async () => {
    for (const name of PARAMETER_NAMES) {
      const key = `console.parameter.${name}` as WordKey;
      assert.equal(WORDS.en[key], parameterSpec(name).description, `${name}: the English words are the registry's`);
      for (const lang of LANGS) if (lang !== 'en') assert.notEqual(WORDS[lang][key], WORDS.en[key], `${lang} ${name} is translated`);
    }
    const browser = await admin();
    const page = await browser.get('/console/governance?lang=zh-Hans');
    assert.ok(page.body.includes(WORDS['zh-Hans']['console.parameter.consensus.graduationMinAttestations']));
    assert.ok(!page.body.includes(parameterSpec('consensus.graduationMinAttestations').description), 'no English description');
    const site = word('zh-Hans', 'module.home.title');
    assert.match(page.body, new RegExp(`<a class="brand" href="/console\\?lang=zh-Hans">${site}控制台</a>`));
    assert.ok(page.body.includes(`返回${site}`));
    const home = await browser.get('/?lang=zh-Hans');
    assert.match(home.body, new RegExp(`<a class="brand" href="/\\?lang=zh-Hans">${site}</a>`));
    for (const lang of LANGS) assert.ok(!Object.values(WORDS[lang]).some((w) => w.includes('新闻室') || w.includes('新闻编辑室')), lang);
  });

  test('a move on a review case nobody opened says that no review case has that id', async () => {
    const browser = await admin();
    const from = '/console/rewards/review?lang=en';
    for (const [move, fields] of [
      ['assign', { assigneeActorId: 'reviewer_1' }],
      ['escalate', {}],
      ['appeal', { note: 'n' }],
      ['resolve', { outcome: 'RESOLVED', resolution: 'r' }],
    ] as const) {
      const { page } = await browser.submit(from, `/console/rewards/review/cases/rc_nope/${move}`, fields);
      assert.equal(flashOf(page.body), 'No review case has the id “rc_nope”.', move);
    }
    const { page } = await browser.submit(from, '/console/rewards/review/cases', {
      targetType: 'STORY',
      targetId: 'st_nope',
      reason: 'check',
      assignedToActorId: '',
    });
    assert.equal(flashOf(page.body), 'No story has the id “st_nope”.');
  });
});
