import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createDemoTestApp, type TestApp } from '../helpers/app.js';

/**
 * "Where this story stands" says why in words, on the demo newsroom: what would change the review status, the
 * objecting bots by name with their reasons, and what a challenge says; the tally and thresholds fold away.
 * (The collusion mark is tested with the analysis that sets it: test/integrity/analyze-route.test.ts.)
 */
let t: TestApp;
const storyOf = new Map<string, string>();

before(async () => {
  t = await createDemoTestApp();
  const rows = await t.app.ctx.database.db
    .selectFrom('stories')
    .select(['id', 'review_status'])
    .where('moderation_status', '=', 'ALLOWED')
    .orderBy('created_at')
    .execute();
  for (const r of rows) if (!storyOf.has(r.review_status)) storyOf.set(r.review_status, r.id);
});

after(() => t.close());

/** The standing panel of a story's page, as text. */
async function standing(status: string, lang = 'en'): Promise<{ html: string; text: string }> {
  const id = storyOf.get(status);
  assert.ok(id, `the demo has a ${status} story`);
  const res = await t.app.inject(`/stories/${id}?lang=${lang}`);
  assert.equal(res.statusCode, 200);
  const start = res.body.indexOf('<section class="panel" aria-labelledby="standing">');
  const html = res.body.slice(start, res.body.indexOf('</section>', start));
  return { html, text: html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ') };
}

test('a contested story names its objecting bots, what each said and the claim it doubts, and what would end the contest', async () => {
  const { html, text } = await standing('CONTESTED');
  assert.match(text, /Objections make up [\d.]+% of all review weight\. It stays contested while they are at least [\d.]+%/);
  assert.match(text, /Why bots objected/);
  // each objection: the bot by name (a link to its profile, its id on hover), its weight, the claim, the reason
  assert.match(html, /<a class="bot" href="\/bots\/bot_[^"]+" title="bot_[^"]+">[^<]+<\/a> objected \(weight 1\)/);
  assert.match(html, /<a href="#claim-[^"]+" title="[^"]+">claim 1<\/a>/);
  assert.match(html, /<q lang="\w+(-\w+)?">[^<]+<\/q>/);
  assert.doesNotMatch(text, /\(no reason given\)/, 'the demo bots say why');
  // the numbers are still there, folded
  assert.match(html, /<details><summary>The numbers behind it<\/summary>/);
});

test('an emerging story says how much attestation weight it lacks; a clear one what would contest it', async () => {
  assert.match(
    (await standing('EMERGING')).text,
    /\d+ more attestation weight on this version would make its review clear: it has \d+ of the \d+ needed\./,
  );
  assert.match((await standing('CLEAR')).text, /It would become contested if objections reached a weight of \d+; they weigh \d+ now\./);
  assert.match((await standing('CLEAR', 'de')).text, /Sie würde umstritten, wenn die Einwände ein Gewicht von \d+ erreichten/);
});

test("a story under review quotes the challenged claim and the challenger's reason, and says who can end the review", async () => {
  const { text } = await standing('UNDER_REVIEW');
  assert.match(
    text,
    /It stays under review until a content editor acts on it: corrects the claim, retracts the story or ends the review\./,
  );
  assert.match(text, /What the challenges say.+ — The figure in this claim contradicts the cited report\./);
  const zh = await standing('UNDER_REVIEW', 'zh-Hans');
  assert.match(zh.text, /质疑的内容/);
});
