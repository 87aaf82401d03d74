import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { LANGS } from '../../src/platform/schemas.js';
import { t, WORDS, type WordKey } from '../../src/web/words/index.js';

/** Plural labels: the form each language's grammar takes for a count, with the count written its way. */

const pluralKeys = (Object.keys(WORDS.en) as WordKey[]).filter((key) => WORDS.en[key].startsWith('{count, plural,'));

/**
 * The plural categories each language's grammar tells apart, as CLDR (and so `Intl.PluralRules`) names them:
 * English and German say "1 comment" and "2 comments"; Spanish and French add `many` for round millions
 * ("1 000 000 de commentaires"), and French counts 0 as `one`; Chinese has one form.
 */
const PLURAL_CATEGORIES = {
  en: ['one', 'other'],
  es: ['one', 'many', 'other'],
  fr: ['one', 'many', 'other'],
  de: ['one', 'other'],
  'zh-Hans': ['other'],
} as const satisfies Record<(typeof LANGS)[number], readonly Intl.LDMLPluralRule[]>;

describe('plural labels', () => {
  test('the plural forms each catalogue must give are the categories Intl.PluralRules distinguishes', () => {
    for (const lang of LANGS) {
      assert.deepEqual(
        [...PLURAL_CATEGORIES[lang]].sort(),
        [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort(),
        lang,
      );
      for (const key of pluralKeys) {
        const forms = [...WORDS[lang][key].matchAll(/(?:^\{count, plural, |\} )(zero|one|two|few|many|other) \{/g)].map((m) => m[1]);
        assert.deepEqual(forms.sort(), [...PLURAL_CATEGORIES[lang]].sort(), `${lang} ${key}`);
      }
    }
  });

  test('the site has plural labels for its counts', () => {
    for (const key of ['site.count.attestations', 'site.count.objections', 'site.count.comments', 'site.flags', 'site.rankings.points']) {
      assert.ok(pluralKeys.includes(key as WordKey), key);
    }
  });

  // "1 000" in French is written with a narrow no-break space (U+202F)
  const table: Record<(typeof LANGS)[number], [number, string][]> = {
    en: [
      [0, '0 comments'],
      [1, '1 comment'],
      [2, '2 comments'],
      [5, '5 comments'],
      [21, '21 comments'],
      [1000, '1,000 comments'],
    ],
    es: [
      [0, '0 comentarios'],
      [1, '1 comentario'],
      [2, '2 comentarios'],
      [5, '5 comentarios'],
      [21, '21 comentarios'],
      [1000, '1000 comentarios'],
      [1_000_000, '1.000.000 de comentarios'],
    ],
    fr: [
      [0, '0 commentaire'],
      [1, '1 commentaire'],
      [2, '2 commentaires'],
      [5, '5 commentaires'],
      [21, '21 commentaires'],
      [1000, '1\u202f000 commentaires'],
      [1_000_000, '1\u202f000\u202f000 de commentaires'],
    ],
    de: [
      [0, '0 Kommentare'],
      [1, '1 Kommentar'],
      [2, '2 Kommentare'],
      [5, '5 Kommentare'],
      [21, '21 Kommentare'],
      [1000, '1.000 Kommentare'],
    ],
    'zh-Hans': [
      [0, '0 条评论'],
      [1, '1 条评论'],
      [2, '2 条评论'],
      [5, '5 条评论'],
      [21, '21 条评论'],
      [1000, '1,000 条评论'],
    ],
  };
  for (const lang of LANGS) {
    test(`${lang}: a count of comments takes the form its grammar asks for`, () => {
      for (const [count, expected] of table[lang]) assert.equal(t(lang, 'site.count.comments', { count }), expected, `${lang} ${count}`);
    });
  }

  test('French counts 0 as singular, English as plural; Chinese has one form', () => {
    assert.equal(t('fr', 'site.count.attestations', { count: 0 }), '0 attestation');
    assert.equal(t('en', 'site.count.attestations', { count: 0 }), '0 attestations');
    assert.equal(t('zh-Hans', 'site.count.attestations', { count: 1 }), '1 条证实');
    assert.equal(t('es', 'site.rewardWindow.left', { count: 1 }), 'queda 1 hora');
    assert.equal(t('es', 'site.rewardWindow.left', { count: 3 }), 'quedan 3 horas');
  });

  test('any count in any language fills every plural label with the count written the language’s way', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LANGS), fc.constantFrom(...pluralKeys), fc.nat({ max: 10_000_000 }), (lang, key, count) => {
        const text = t(lang, key, { count });
        assert.ok(text.includes(new Intl.NumberFormat(lang).format(count)), `${lang} ${key} ${count}: ${text}`);
        assert.doesNotMatch(text, /\{count\}/);
      }),
    );
  });
});
