import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { consoleBack } from '../../src/web/console/gate.js';
import { safeBack } from '../../src/web/site/form-replies.js';
import { fuzzRuns } from '../helpers/fuzz.js';

const HOME = '/?lang=en';
const CONSOLE = '/console?lang=en';
const ORIGIN = 'https://news.example';

/** Where a browser on the site goes with a Location header of `location` (its URL parser drops TAB, LF, CR). */
const landsOn = (location: string) => new URL(location, `${ORIGIN}/stories/st_1?lang=en`);

/** Targets that would leave the site, or could after one more decoding: each goes to the home page. */
const HOSTILE: string[] = [
  '/\t/evil.example/',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r/evil.example',
  '/\r\n/evil.example',
  '\t//evil.example',
  '/\u0000/evil.example',
  '/\u007f/evil.example',
  '/\u0085/evil.example',
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%2F/evil.example',
  '/%2f%2fevil.example',
  '/%5Cevil.example',
  '/%20/evil.example',
  '\\evil',
  '\\\\evil.example',
  '/\\evil',
  '/\\/evil.example',
  '//evil.example',
  '///evil.example',
  '//evil.example/stories/st_1',
  'https://evil.example',
  'HTTPS://evil.example/',
  'http:/evil.example',
  `${ORIGIN}/stories/st_1`,
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'mailto:x@evil.example',
  '/ /evil',
  ' /stories/st_1',
  '/.//evil.example',
  '/..//evil.example',
  '/stories/..//evil.example',
  '/%2e%2e//evil.example',
  '/./%2E//evil.example',
  '/\u3000/evil.example',
  '/\u00a0/evil.example',
  '/\u2028/evil.example',
  '/\u200b/evil.example',
  '/\u202e/evil.example',
  '/\ufeff/evil.example',
  '/\ud800/evil.example',
  '\uff0f\uff0fevil.example',
  '?next=//evil.example',
  '#//evil.example',
  'evil.example',
  '../stories/st_1',
  '',
];

/** Paths of this site: kept, as the URL parser normalizes them. */
const GOOD: [string, string][] = [
  ['/stories/abc?lang=fr#c1', '/stories/abc?lang=fr#c1'],
  ['/?lang=en', '/?lang=en'],
  ['/', '/'],
  ['/me?lang=de', '/me?lang=de'],
  ['/stories/../me?lang=en', '/me?lang=en'],
  ['/search?q=caf%C3%A9&lang=fr', '/search?q=caf%C3%A9&lang=fr'],
  ['/search?q=caf\u00e9', '/search?q=caf%C3%A9'],
  ['/login?lang=en&next=%2F%2Fevil.example', '/login?lang=en&next=%2F%2Fevil.example'],
  ['/\uff0f\uff0fevil.example', '/%EF%BC%8F%EF%BC%8Fevil.example'],
  ['/console/moderation?lang=de', '/console/moderation?lang=de'],
];

describe('the page a form returns to', () => {
  test('a target that is not a path of this site is the home page', () => {
    for (const target of HOSTILE) assert.equal(safeBack(target, 'en'), HOME, JSON.stringify(target));
    assert.equal(safeBack(undefined, 'fr'), '/?lang=fr');
  });

  test('a path of this site is kept, normalized as a browser reads it', () => {
    for (const [target, path] of GOOD) {
      assert.equal(safeBack(target, 'en'), path, JSON.stringify(target));
      assert.equal(landsOn(path).origin, ORIGIN);
    }
  });

  test('a console form returns to a console path only, with the same refusals', () => {
    for (const target of HOSTILE) assert.equal(consoleBack(target, 'en'), CONSOLE, JSON.stringify(target));
    for (const target of ['/console/\t/evil.example', '/console/..//evil.example', '/console/../me?lang=en', '/consoles', '/?lang=en'])
      assert.equal(consoleBack(target, 'en'), CONSOLE, JSON.stringify(target));
    for (const target of ['/console', '/console?lang=de', '/console/moderation/stories/st_1?lang=en#note', '/console#top'])
      assert.equal(consoleBack(target, 'en'), target);
  });

  test('whatever the target, the browser stays on the site, and the page is its own normal form', () => {
    const piece = fc.oneof(
      fc.constantFrom('/', '//', '\\', '\t', '\n', '\r', ' ', '.', '..', '%09', '%2f', '%5c', '%2e', ':', '?', '#', '@', 'evil.example'),
      fc.constantFrom('https:', 'javascript:', '\u3000', '\u00a0', '\u200b', '\uff0f', '\ud800', 'st_1', 'lang=en'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const target = pieces.join('');
        for (const back of [safeBack(target, 'en'), consoleBack(target, 'en')]) {
          const url = landsOn(back);
          assert.equal(url.origin, ORIGIN, `${JSON.stringify(target)} -> ${JSON.stringify(back)}`);
          assert.equal(`${url.pathname}${url.search}${url.hash}`, back, 'what the browser reads is what was sent');
          assert.equal(safeBack(back, 'en'), back);
        }
      }),
      { numRuns: fuzzRuns(5000, 500) },
    );
  });
});
