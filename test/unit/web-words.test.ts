import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IntlMessageFormat } from 'intl-messageformat';
import { LANGS } from '../../src/platform/schemas.js';
import { isLabelKey, t, WORDS, type WordKey } from '../../src/web/words/index.js';

/** The web layer's words (src/web/words/*.json): one key set, the same arguments and the right plural forms in every language. */

type Node = { type: number; value?: unknown; options?: Record<string, { value: Node[] }> };

/** Argument names and the plural categories of each plural argument of a message. */
function shape(message: string, lang: string): { args: string[]; plurals: string[][] } {
  const args = new Set<string>();
  const plurals: string[][] = [];
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      if (node.type !== 0 && typeof node.value === 'string') args.add(node.value);
      if (node.options) {
        if (node.type === 6) plurals.push(Object.keys(node.options).sort());
        for (const option of Object.values(node.options)) walk(option.value);
      }
    }
  };
  walk(new IntlMessageFormat(message, lang, undefined, { ignoreTag: true }).getAst() as Node[]);
  return { args: [...args].sort(), plurals };
}

const keys = Object.keys(WORDS.en) as WordKey[];

describe('the web layer words', () => {
  test('every language has exactly the English keys, each a message that parses', () => {
    for (const lang of LANGS) {
      assert.deepEqual(Object.keys(WORDS[lang]).sort(), [...keys].sort(), lang);
      for (const key of keys) assert.doesNotThrow(() => shape(WORDS[lang][key], lang), `${lang} ${key}`);
    }
  });

  test('every translation takes the same arguments as the English message, and plural messages the forms of its language', () => {
    for (const key of keys) {
      const english = shape(WORDS.en[key], 'en');
      for (const lang of LANGS) {
        const { args, plurals } = shape(WORDS[lang][key], lang);
        assert.deepEqual(args, english.args, `${lang} ${key}`);
        assert.equal(plurals.length, english.plurals.length, `${lang} ${key}`);
        for (const forms of plurals)
          assert.deepEqual(forms, [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort(), `${lang} ${key}`);
      }
    }
  });

  test('the site, its accounts and the console each have their words', () => {
    for (const prefix of ['site.', 'account.', 'console.'])
      assert.ok(
        keys.some((key) => key.startsWith(prefix)),
        prefix,
      );
    assert.ok(isLabelKey('en', 'site.tagline'));
    assert.ok(isLabelKey('en', 'state.GRADUATED'), 'a label the API writes too');
    assert.ok(!isLabelKey('en', 'site.no-such-key'));
  });

  test('a plural message writes the count as the language writes numbers; a missing argument shows as written', () => {
    assert.equal(t('en', 'site.count.comments', { count: 1 }), '1 comment');
    assert.equal(t('en', 'site.count.comments', { count: 1000 }), '1,000 comments');
    assert.equal(t('fr', 'site.count.comments', { count: 0 }), '0 commentaire');
    assert.equal(t('fr', 'site.count.comments', { count: 1_000_000 }), '1\u202f000\u202f000 de commentaires');
    assert.equal(t('en', 'site.bot.unnamed'), 'bot {short}');
    assert.equal(t('en', 'state.GRADUATED'), 'Graduated');
  });
});
