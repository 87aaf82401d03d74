import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WORDS } from '../../src/web/words/index.js';
import { LANGS } from '../../src/platform/schemas.js';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { createTestApp } from '../helpers/app.js';
import { siteBrowser } from '../helpers/site-browser.js';

/**
 * Every console page in the five languages: it answers 200 in the language asked (the `lang` attribute), shows
 * no catalogue key and no unfilled placeholder, and its navigation is in that language. A refusal page (403)
 * too.
 */
const PAGES = [
  '/console',
  '/console/moderation',
  '/console/moderation/legal-holds',
  '/console/moderation/sources',
  '/console/moderation/stories',
  '/console/moderation/webhooks',
  '/console/governance',
  '/console/control-plane',
  '/console/integrity',
  '/console/audit',
  '/console/rewards',
  '/console/rewards/settlements',
  '/console/rewards/review',
  '/console/rewards/freezes',
  '/console/rewards/claims',
];

/** The visible text of a page: no tags, no script or style. */
const textOf = (html: string) =>
  html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/g, ' ');

test('every console page speaks each of the five languages, with no key or placeholder left', async () => {
  const admin = devLinkedHumanId('ana');
  const t = await createTestApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    CONTENT_ADMIN_IDS: admin,
    REWARDS_ADMIN_IDS: admin,
    CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: admin,
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
    RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '100000',
  });
  try {
    const ana = siteBrowser(t.app);
    await ana.devLogin('ana');
    const reader = siteBrowser(t.app, '203.0.113.99');
    await reader.devLogin('dee');
    for (const lang of LANGS) {
      const areaName = WORDS[lang]['console.area.governance'];
      for (const path of PAGES) {
        const page = await ana.get(`${path}?lang=${encodeURIComponent(lang)}`);
        assert.equal(page.statusCode, 200, `${path} in ${lang}`);
        assert.match(page.body, new RegExp(`<html lang="${lang}"`), `${path} in ${lang}`);
        const text = textOf(page.body);
        assert.doesNotMatch(text, /\bconsole\.[a-zA-Z-]+\.[a-zA-Z.]+/, `${path} in ${lang} shows a catalogue key`);
        assert.doesNotMatch(text, /\{[a-zA-Z]+\}/, `${path} in ${lang} has an unfilled placeholder`);
        assert.ok(text.includes(areaName), `${path} in ${lang} names its areas in ${lang}`);
      }
      const forbidden = await reader.get(`/console?lang=${encodeURIComponent(lang)}`);
      assert.equal(forbidden.statusCode, 403);
      assert.ok(textOf(forbidden.body).includes(WORDS[lang]['console.forbidden.title']), `the 403 page in ${lang}`);
    }
  } finally {
    await t.close();
  }
});
