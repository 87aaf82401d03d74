import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { en } from '../../src/platform/i18n/en.js';
import { CATALOGUES, placeholders, t, type MessageKey, type PluralKey } from '../../src/platform/i18n/index.js';
import { PLURAL_CATEGORIES } from '../../src/platform/i18n/plural.js';
import { LANGS } from '../../src/platform/schemas.js';

const keys = Object.keys(en) as (MessageKey | PluralKey)[];
/** The texts of a message: itself, or each form of a plural label. */
const texts = (message: unknown): string[] => (typeof message === 'string' ? [message] : Object.values(message as Record<string, string>));

describe('message catalogues', () => {
  test('every language has a catalogue', () => {
    assert.deepEqual(Object.keys(CATALOGUES).sort(), [...LANGS].sort());
  });

  for (const lang of LANGS) {
    test(`${lang}: every key exists, no extra key, every message is non-empty text or has exactly the plural forms of ${lang}`, () => {
      const catalogue = CATALOGUES[lang] as Record<string, unknown>;
      assert.deepEqual(Object.keys(catalogue).sort(), [...keys].sort());
      for (const key of keys) {
        const message = catalogue[key];
        if (typeof en[key] === 'string') assert.equal(typeof message, 'string', `${lang} ${key}`);
        else
          assert.deepEqual(Object.keys(message as object).sort(), [...PLURAL_CATEGORIES[lang]].sort(), `${lang} ${key}: its plural forms`);
        for (const text of texts(message)) assert.ok(text.trim().length > 0, `${lang} ${key} is empty`);
      }
    });

    test(`${lang}: every message (every plural form) has the same placeholders as English`, () => {
      for (const key of keys) {
        const english = placeholders(texts(en[key]).at(-1)!);
        for (const text of texts(CATALOGUES[lang][key])) assert.deepEqual(placeholders(text), english, `${lang} ${key}: ${text}`);
      }
    });
  }

  test('non-English catalogues are translations, not copies of English', () => {
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      const translated = keys.filter((key) => CATALOGUES[lang][key] !== en[key]);
      // Some labels are legitimately identical (UP/DOWN, "Provisional" in Spanish); most must differ.
      assert.ok(
        translated.length / keys.length > 0.85,
        `${lang}: only ${translated.length} of ${keys.length} messages differ from English`,
      );
    }
  });

  test('t() fills placeholders and leaves unknown ones visible', () => {
    assert.equal(
      t('en', 'gate.rewardWindow.open', { closesAt: '2026-03-10T12:00:00.000Z' }),
      'The reward window is open until 2026-03-10T12:00:00.000Z.',
    );
    assert.equal(t('de', 'module.rewardWindow.description', { hours: 48 }).includes('48 Stunden'), true);
    assert.equal(t('en', 'gate.rewardWindow.open'), 'The reward window is open until {closesAt}.');
    assert.equal(t('zh-Hans', 'state.GRADUATED'), '已确认');
  });
});
