import { IntlMessageFormat } from 'intl-messageformat';
import { CATALOGUES, t as apiLabel, type Lang, type MessageKey, type MessageParams } from '../../platform/i18n/index.js';
import de from './de.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };
import fr from './fr.json' with { type: 'json' };
import zhHans from './zh-Hans.json' with { type: 'json' };

export type { Lang } from '../../platform/i18n/index.js';

/** The keys of the web layer's own words: the site's, the accounts' and the console's, English being the reference. */
export type WordKey = keyof typeof en;
/** A key a page may show: one of the web layer's words, or a label the API writes too (states, modules, gates). */
export type LabelKey = WordKey | MessageKey;

/**
 * The words of the site, its accounts and the console: one JSON catalogue per
 * language, flat keys, ICU MessageFormat messages (`{name}` arguments, `{count, plural, one {# comment} other {# comments}}`)
 * that translators' tools read. Each catalogue is typed against en.json, so a key missing from a language fails the
 * type check; test/unit/web-words.test.ts checks the arguments and plural forms of every message.
 */
export const WORDS: { readonly [L in Lang]: Readonly<Record<WordKey, string>> } = { en, es, fr, de, 'zh-Hans': zhHans };

interface Compiled {
  /** The message's text when it takes no argument (most words): nothing to format. */
  readonly text: string | null;
  readonly format: IntlMessageFormat;
  /** The argument names of the message, so that a missing one is shown as written (`{name}`) instead of failing. */
  readonly args: readonly string[];
}

const compiled = new Map<string, Compiled>();

/** Argument names of a parsed ICU message, plural and select branches included. */
function argumentsOf(elements: ReturnType<IntlMessageFormat['getAst']>, into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if ('value' in element && typeof element.value === 'string' && element.type !== 0) into.add(element.value);
    if ('options' in element) for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    if ('children' in element) argumentsOf(element.children, into);
  }
  return into;
}

function compile(lang: Lang, key: WordKey): Compiled {
  const id = `${lang}\u0000${key}`;
  let entry = compiled.get(id);
  if (!entry) {
    const format = new IntlMessageFormat(WORDS[lang][key], lang, undefined, { ignoreTag: true });
    const args = [...argumentsOf(format.getAst())];
    entry = { text: args.length ? null : String(format.format()), format, args };
    compiled.set(id, entry);
  }
  return entry;
}

/** Whether `key` names a word or label in `lang` (a flash message or error code turned into a key). */
export function isLabelKey(lang: Lang, key: string): key is LabelKey {
  return Object.hasOwn(WORDS[lang], key) || Object.hasOwn(CATALOGUES[lang], key);
}

/**
 * The message `key` in `lang`, its arguments filled from `params`; a plural message takes its form from
 * `params.count` (Intl.PluralRules of `lang`) and writes the count as `lang` writes numbers. An argument without a
 * value is left as written, so a missing parameter shows up in tests instead of vanishing. A key that is not one
 * of the web layer's words is a label the API writes too, taken from its catalogue (src/platform/i18n).
 */
export function t(lang: Lang, key: LabelKey, params?: MessageParams): string {
  if (!Object.hasOwn(WORDS[lang], key)) return apiLabel(lang, key as MessageKey, params);
  const { text, format, args } = compile(lang, key as WordKey);
  if (text !== null) return text;
  const values: Record<string, string | number> = {};
  for (const name of args) values[name] = params && name in params ? params[name]! : `{${name}}`;
  return String(format.format(values));
}
