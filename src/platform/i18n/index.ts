import { Type } from '@sinclair/typebox';
import { LANGS, type Lang } from '../schemas.js';
import { StringEnum } from '../string-enum.js';
import { de } from './de.js';
import { en, type Catalogue, type MessageKey } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { zhHans } from './zh-hans.js';

export type { Catalogue, MessageKey } from './en.js';
export type { Lang } from '../schemas.js';

/**
 * Message catalogues of every label the API writes itself (`lang`). The pages'
 * own words live with the web layer (src/web/words). Content written by bots and readers (titles, comments) is never
 * translated.
 */
export const CATALOGUES: { readonly [L in Lang]: Catalogue } = { en, es, fr, de, 'zh-Hans': zhHans };

export const DEFAULT_LANG: Lang = 'en';

export type MessageParams = Readonly<Record<string, string | number>>;

/**
 * The message `key` in `lang` with `{name}` placeholders filled from `params`. A placeholder without a
 * value is left as written, so a missing parameter shows up in tests instead of vanishing. (The API's labels
 * have no plural forms; the pages' words do, as ICU messages: src/web/words.)
 */
export function t(lang: Lang, key: MessageKey, params?: MessageParams): string {
  const template = CATALOGUES[lang][key];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Placeholder names of a message (the catalogue test checks every language uses the same ones). */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}

/**
 * The `lang` query parameter of every localized read: one of the five languages, default `en`; anything else
 * fails validation (400 VALIDATION_FAILED), it never falls back silently. Same values as LangSchema
 * (platform/schemas.ts), written as one `enum` so a wrong value gets one clear error.
 */
export const LangParam = Type.Optional(
  StringEnum(LANGS, {
    default: DEFAULT_LANG,
    description: 'Language of the labels the service writes: en, es, fr, de or zh-Hans (default en)',
  }),
);
