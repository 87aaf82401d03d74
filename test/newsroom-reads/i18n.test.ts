import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { en } from '../../src/platform/i18n/en.js';
import { CATALOGUES, placeholders, t, type MessageKey } from '../../src/platform/i18n/index.js';
import { LANGS } from '../../src/platform/schemas.js';

const keys = Object.keys(en) as MessageKey[];

describe('message catalogues', () => {
  test('every language has a catalogue', () => {
    assert.deepEqual(Object.keys(CATALOGUES).sort(), [...LANGS].sort());
  });

  for (const lang of LANGS) {
    test(`${lang}: every key exists, no extra key, every message is non-empty text`, () => {
      const catalogue = CATALOGUES[lang] as Record<string, unknown>;
      assert.deepEqual(Object.keys(catalogue).sort(), [...keys].sort());
      for (const key of keys) {
        const message = catalogue[key];
        assert.equal(typeof message, 'string', `${lang} ${key}`);
        assert.ok((message as string).trim().length > 0, `${lang} ${key} is empty`);
      }
    });

    test(`${lang}: every message has the same placeholders as English`, () => {
      for (const key of keys) {
        const text = CATALOGUES[lang][key];
        assert.deepEqual(placeholders(text), placeholders(en[key]), `${lang} ${key}: ${text}`);
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
