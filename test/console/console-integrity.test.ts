import assert from 'node:assert/strict';
import { test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { integrityApp, plantedNewsroom } from '../integrity/support.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * The integrity page through inject: the latest analysis as a picture with members by name and one number per
 * finding, and acting on a finding from its own page (a review case, a member's payouts frozen, a dismissal),
 * each audited, each refused to a person not on the allowlist it needs, each back on a page with its own address.
 * Chromium plays the same page in test/console/console-browser.test.ts.
 */
const [ana, ben, dee] = ['ana', 'ben', 'dee'].map((name) => ({ name, key: devLinkedHumanId(name) }));

test('the analysis is a picture with names and one number per finding; a finding is acted on from its own page, audited, and a dismissed one no longer waits', async () => {
  // ana: content and rewards admin; ben: content admin only; dee: on no allowlist
  const ia = await integrityApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    CONTENT_ADMIN_IDS: `h_admin,${ana!.key},${ben!.key}`,
    REWARDS_ADMIN_IDS: ana!.key,
  });
  try {
    const db = ia.g.t.db.database.db;
    const { ring, readerRing } = await plantedNewsroom(ia);
    // a reader with a display name; the others have none
    const at = new Date();
    await db
      .insertInto('display_names')
      .values({ actor_id: readerRing[0]!, name: 'Vera Voter', name_key: 'vera voter', chosen_at: at, created_at: at })
      .execute();
    const botName = new Map((await db.selectFrom('bots').select(['bot_id', 'name']).execute()).map((b) => [b.bot_id, b.name] as const));
    const admin = siteBrowser(ia.g.t.app);
    await admin.devLogin(ana!.name);

    // the analysis form comes back to the page, which shows the latest analysis (reloadable: a GET)
    const { posted, page } = await admin.submit('/console/integrity?lang=en', '/console/integrity/analyze', { windowDays: '30' });
    assert.equal(posted.headers.location, '/console/integrity?lang=en');
    assert.match(flashOf(page.body) ?? '', /^Analysis done: 2 clusters flagged\.$/);
    assert.match(page.body, /<svg class="graph"/);
    assert.match(page.body, /2 findings wait for a decision\./);
    // one number per finding, with its sentence; no "score", no "times"
    assert.match(page.body, /<strong class="big">100%<\/strong> of the \d+ acts of these 3 members were for or with each other/);
    assert.doesNotMatch(page.body, /score|times the acts/);
    // names on every node: bots by name, a reader by display name, one without a name by kind; ids in the title only
    for (const bot of ring) assert.match(page.body, new RegExp(`<span title="${bot.botId}">${botName.get(bot.botId)}</span>`));
    assert.match(page.body, new RegExp(`<span title="${readerRing[0]}">Vera Voter</span>`));
    assert.match(page.body, /<span title="ring-reader-1">Unnamed reader \d<\/span>/);
    assert.doesNotMatch(page.body.replace(/title="[^"]*"/g, '').replace(/href="[^"]*"/g, ''), /ring-reader-|bot_[0-9a-f]{6}/);
    const findingLinks = [...page.body.matchAll(/href="(\/console\/integrity\/findings\/[^"#]+)"/g)].map((m) =>
      m[1]!.replace(/&amp;/g, '&'),
    );
    const ringFinding = [...new Set(findingLinks)].find((l) => l.includes('cartel_'))!;
    assert.ok(ringFinding);
    const analysisId = /findings\/([^/]+)\//.exec(ringFinding)![1]!;

    // the finding of the bot ring and the finding with the readers
    const clusters = await Promise.all(
      [...new Set(findingLinks.map((l) => l.split('?')[0]!))].map(async (path) => ({
        path,
        body: (await admin.get(`${path}?lang=en`)).body,
      })),
    );
    const botFinding = clusters.find((c) => c.body.includes(botName.get(ring[0]!.botId)!) && !c.body.includes('Vera Voter'))!;
    const readerFinding = clusters.find((c) => c.body.includes('Vera Voter'))!;
    assert.ok(botFinding && readerFinding, 'both findings have a page');

    // (a) a review case for the finding: on a story the cluster boosted, linked to the finding, audited twice
    const story = /<option value="STORY:([^"]+)"/.exec(botFinding.body)![1]!;
    const opened = await admin.submit(`${botFinding.path}?lang=en`, `${botFinding.path}/case`, {
      target: `STORY:${story}`,
      reason: 'Three bots attest only each other',
    });
    assert.equal(opened.posted.headers.location, `${botFinding.path}?lang=en`, 'back to the finding, a page with its own address');
    const caseId = /^Review case (\S+) opened for this finding\.$/.exec(flashOf(opened.page.body) ?? '')?.[1];
    assert.ok(caseId, flashOf(opened.page.body) ?? opened.page.body.slice(0, 500));
    assert.match(opened.page.body, new RegExp(`opened review case ${caseId}: “Three bots attest only each other”`));
    const reviewCase = await db.selectFrom('review_cases').selectAll().where('id', '=', caseId).executeTakeFirstOrThrow();
    assert.equal(reviewCase.target_type, 'STORY');
    assert.match(reviewCase.reason, new RegExp(`^Cartel finding cartel_\\w+ of analysis ${analysisId}: Three bots`));
    const audited = async (action: string) =>
      db.selectFrom('audit_events').select(['action', 'target', 'details']).where('action', '=', action).execute();
    assert.equal((await audited('review_case.open')).length, 1);
    const link = await audited('cartel.finding.case_opened');
    assert.equal(link.length, 1);
    assert.match(link[0]!.target!, new RegExp(`^${analysisId}/cartel_`));

    // (b) freezing a member's payouts: a confirmation naming the effect, then the freeze of the recipient behind them
    const noRecipient = await admin.get(`${botFinding.path}/freeze?lang=en&member=bot:${ring[0]!.botId}`);
    assert.equal(noRecipient.statusCode, 200);
    assert.match(noRecipient.body, /is a rewards recipient, so there are no payouts to freeze/);
    await db
      .insertInto('reward_recipients')
      .values({
        id: 'rr_vera',
        linked_human_id: 'h_vera',
        actor_id: readerRing[0]!,
        terms_version: '2026-11',
        terms_accepted_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const confirm = await admin.get(`${readerFinding.path}/freeze?lang=en&member=actor:${readerRing[0]}`);
    assert.match(confirm.body, /This freezes every pending payout of Vera Voter: payable, waiting and held payouts become frozen/);
    assert.match(confirm.body, /<button type="submit" class="danger">Freeze the payouts of Vera Voter<\/button>/);
    const frozen = await admin.submit(
      `${readerFinding.path}/freeze?lang=en&member=actor:${readerRing[0]}`,
      `${readerFinding.path}/freeze`,
      {
        member: `actor:${readerRing[0]}`,
        reason: 'Up-votes only the ring',
      },
    );
    assert.equal(frozen.posted.headers.location, `${readerFinding.path}?lang=en`);
    assert.equal(flashOf(frozen.page.body), 'The payouts of rewards recipient rr_vera are frozen.');
    assert.match(frozen.page.body, /froze the payouts behind Vera Voter: “Up-votes only the ring”/);
    const recipient = await db
      .selectFrom('reward_recipients')
      .select(['frozen_at', 'frozen_reason'])
      .where('id', '=', 'rr_vera')
      .executeTakeFirstOrThrow();
    assert.ok(recipient.frozen_at);
    assert.match(recipient.frozen_reason!, /Up-votes only the ring$/);
    assert.equal((await audited('recipient.frozen')).length, 1);
    assert.equal((await audited('cartel.finding.member_frozen')).length, 1);
    // a member that is not in the finding is refused, nothing frozen
    await admin.get(`${readerFinding.path}?lang=en`);
    const stranger = await admin.post(`${readerFinding.path}/freeze`, {
      _csrf: admin.csrf(),
      lang: 'en',
      member: 'actor:honest-reader-0',
      reason: 'x',
    });
    assert.equal(stranger.statusCode, 303);
    assert.equal(
      flashOf((await admin.get(String(stranger.headers.location))).body),
      'This record cannot be found: it may have been removed, or the link is wrong.',
    );
    assert.equal((await audited('cartel.finding.member_frozen')).length, 1);

    // refusals: ben (content admin, not rewards) cannot open a case or freeze; dee (no allowlist) cannot even look
    const bena = siteBrowser(ia.g.t.app, '203.0.113.77');
    await bena.devLogin(ben!.name);
    const benPage = await bena.get(`${botFinding.path}?lang=en`);
    assert.equal(benPage.statusCode, 200);
    assert.match(benPage.body, /need the rewards allowlist/);
    const benCase = await bena.post(`${botFinding.path}/case`, { _csrf: bena.csrf(), lang: 'en', target: `STORY:${story}`, reason: 'x' });
    assert.equal(benCase.statusCode, 303);
    assert.equal(flashOf((await bena.get(String(benCase.headers.location))).body), 'Only rewards admins may do this.');
    assert.equal((await audited('review_case.open')).length, 1, 'no case opened for ben');
    const deea = siteBrowser(ia.g.t.app, '203.0.113.78');
    await deea.devLogin(dee!.name);
    assert.equal((await deea.get(`${botFinding.path}?lang=en`)).statusCode, 403);
    await deea.get('/?lang=en');
    const deeDismiss = await deea.post(`${botFinding.path}/dismiss`, { _csrf: deea.csrf(), lang: 'en', reason: 'x' });
    assert.equal(deeDismiss.statusCode, 403);
    assert.equal((await audited('cartel.finding.dismissed')).length, 0, 'nothing dismissed by dee');

    // (c) dismissing with a reason: shown with who, when and why; counted no more on the console's home
    const homeBefore = (await bena.get('/console?lang=en')).body;
    assert.match(homeBefore, /data-kind="findings"[^>]*>.*?<strong class="count">2<\/strong>/s);
    const dismissed = await bena.submit(`${botFinding.path}?lang=en`, `${botFinding.path}/dismiss`, { reason: 'A beat desk, not a ring' });
    assert.equal(flashOf(dismissed.page.body), 'Finding dismissed: it no longer counts as waiting.');
    assert.match(dismissed.page.body, new RegExp(`<strong>Dismissed</strong> by ${ben!.key}: “A beat desk, not a ring”`));
    assert.doesNotMatch(dismissed.page.body, /Dismiss this finding/, 'no second dismissal form');
    const dismissals = await audited('cartel.finding.dismissed');
    assert.equal(dismissals.length, 1);
    assert.deepEqual(dismissals[0]!.details, { reason: 'A beat desk, not a ring' });
    assert.match((await bena.get('/console?lang=en')).body, /data-kind="findings"[^>]*>.*?<strong class="count">1<\/strong>/s);
    assert.match((await bena.get('/console/integrity?lang=en')).body, /1 finding waits for a decision\./);
    // a second dismissal is refused with a sentence
    const again = await bena.post(`${botFinding.path}/dismiss`, { _csrf: bena.csrf(), lang: 'en', reason: 'again' });
    assert.equal(flashOf((await bena.get(String(again.headers.location))).body), 'This finding is already dismissed.');
    // an unknown finding is a 404 page, not a 500
    assert.equal((await bena.get(`/console/integrity/findings/${analysisId}/cartel_0000000000000000?lang=en`)).statusCode, 404);
  } finally {
    await ia.g.t.close();
  }
});
