import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CATALOGUES, placeholders, t as before, type MessageKey, type PluralKey } from '../../src/platform/i18n/index.js';
import { LANGS } from '../../src/platform/schemas.js';
import { t as after, WORDS, type WordKey } from '../../src/web/words/index.js';

/**
 * The JSON catalogues with ICU messages say exactly what the TypeScript catalogues they replace said: for every
 * key, every language, with and without arguments and for many counts, the two formatters answer the same text.
 */

const COUNTS = [0, 1, 2, 3, 5, 11, 21, 100, 101, 1000, 1_000_000, 2_000_000, 1.5, 0.25];
const webKeys = Object.keys(CATALOGUES.en).filter((key) => /^(site|account|console)\./.test(key));

describe('the web words as JSON say what the old catalogues said', () => {
  test('the same keys', () => {
    for (const lang of LANGS) assert.deepEqual(Object.keys(WORDS[lang]).sort(), [...webKeys].sort(), lang);
  });

  for (const lang of LANGS) {
    test(`${lang}: every key, with and without arguments, and for every count`, () => {
      for (const key of webKeys) {
        const message = (CATALOGUES[lang] as Record<string, string | Record<string, string>>)[key]!;
        const texts = typeof message === 'string' ? [message] : Object.values(message);
        const names = [...new Set(texts.flatMap(placeholders))].filter((name) => name !== 'count');
        const params = Object.fromEntries(names.map((name, i) => [name, i % 2 ? `«${name}'s value»` : i * 7 + 3]));
        if (typeof message === 'string') {
          assert.equal(after(lang, key as WordKey), before(lang, key as MessageKey), `${lang} ${key} without arguments`);
          assert.equal(after(lang, key as WordKey, params), before(lang, key as MessageKey, params), `${lang} ${key}`);
        } else {
          for (const count of COUNTS) {
            assert.equal(
              after(lang, key as WordKey, { ...params, count }),
              before(lang, key as PluralKey, { ...params, count }),
              `${lang} ${key} count ${count}`,
            );
          }
        }
      }
    });
  }
});
