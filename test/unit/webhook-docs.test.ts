import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { webhookHeaders } from '../../src/delivery/webhooks/signature.js';

type Verify = (secret: string, headers: Record<string, string>, rawBody: string) => boolean;

test("docs/webhooks.md's receiver code verifies what the service signs, and nothing else", async () => {
  const doc = await readFile(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const block = /<!-- verify:start -->\n```js\n([\s\S]*?)```\n<!-- verify:end -->/.exec(doc)?.[1];
  assert.ok(block, 'the verification snippet is in docs/webhooks.md');
  const lines = block.split('\n').filter((l) => l.trim() && !l.startsWith('import') && !l.trim().startsWith('//'));
  assert.ok(lines.length <= 10, `about ten lines of code (${lines.length})`);
  const source = block.replace(/^import .*$/m, '');
  const verify = new Function('createHmac', 'timingSafeEqual', `${source}; return verifyWebhook;`)(createHmac, timingSafeEqual) as Verify;

  const body = JSON.stringify({ id: 'whe_1', type: 'story.retraction', occurredAt: '2026-11-22T10:00:00.000Z', data: { storyId: 'st_1' } });
  const headers = webhookHeaders('s3cret', { id: 'whe_1', occurredAt: '2026-11-22T10:00:00.000Z', payload: body });
  assert.equal(verify('s3cret', headers, body), true);
  assert.equal(verify('wrong', headers, body), false);
  assert.equal(verify('s3cret', headers, body.replace('st_1', 'st_2')), false);
  assert.equal(verify('s3cret', { ...headers, 'x-svc-webhook-id': 'whe_2' }, body), false);
  assert.equal(verify('s3cret', { ...headers, 'x-svc-webhook-signature': '' }, body), false);
});
