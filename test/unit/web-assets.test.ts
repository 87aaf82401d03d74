import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CONSOLE_ASSETS } from '../../src/web/console/assets.js';
import { ASSETS } from '../../src/web/site/assets.js';

/** The pages' style sheets and scripts are the files under src/web/<room>/assets/, served under a hash of their content. */

const file = (path: string) => readFileSync(new URL(`../../src/web/${path}`, import.meta.url), 'utf8');
const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

test('the site serves its asset files as they are written, under a hash of their content', () => {
  assert.equal(ASSETS.css.body, file('site/assets/site.css') + file('site/assets/account.css'));
  assert.equal(ASSETS.js.body, file('site/assets/site.js'));
  assert.equal(ASSETS.worldId.body, file('site/assets/world-id.js'));
  assert.equal(ASSETS.icon.body, file('site/assets/icon.svg'));
  for (const asset of Object.values(ASSETS)) assert.match(asset.path, new RegExp(`-${hash(asset.body)}\\.(css|js|svg)$`));
});

test("the console's style sheet is its file and the graph's cluster colours", () => {
  assert.ok(CONSOLE_ASSETS.css.body.startsWith(file('console/assets/console.css')));
  assert.match(CONSOLE_ASSETS.css.body, /\.console \.swatch\.c0\{background:#/);
  assert.equal(CONSOLE_ASSETS.css.path, `/assets/console-${hash(CONSOLE_ASSETS.css.body)}.css`);
});
