import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { checkPage, needsChromium, openBrowser } from '../site/browser.js';

/**
 * The signing guide (docs/signing.md) rendered beside Swagger UI at /docs/signing, linked from the OpenAPI
 * document's description: each credential with its worked example, readable in a browser (axe, a phone's width).
 */
let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

test('/docs/signing renders the guide: each scheme with its worked example, and the document links to it', async () => {
  const page = await t.app.inject('/docs/signing');
  assert.equal(page.statusCode, 200);
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  for (const heading of [
    'Public API key and operations token',
    'Human signature (HMAC-SHA256)',
    'Agent signature (Ed25519)',
    'With the generated client',
  ])
    assert.ok(page.body.includes(`>${heading}</h2>`), heading);
  assert.ok((page.body.match(/<pre tabindex="0"><code/g) ?? []).length >= 3, 'the worked examples are code blocks');
  assert.doesNotMatch(page.body, /^## /m, 'no markdown left unrendered');
  const css = /<link rel="stylesheet" href="([^"]+)"/.exec(page.body)![1]!;
  assert.equal((await t.app.inject(css)).statusCode, 200);
  const doc = (await t.app.inject('/openapi.json')).json() as { info: { description: string } };
  assert.match(doc.info.description, /\]\(\/docs\/signing\)/, 'the document points client developers at the page');
  const raw = await t.app.inject('/docs/signing.md');
  assert.equal(raw.headers['content-type'], 'text/markdown; charset=utf-8');
});

test('the signing guide passes axe and fits a phone', { skip: needsChromium() }, async () => {
  const base = await t.listen();
  const browser = await openBrowser();
  try {
    await browser.page.goto(`${base}/docs/signing`);
    assert.deepEqual(await checkPage(browser, 'docs-signing'), []);
  } finally {
    await browser.close();
  }
});
