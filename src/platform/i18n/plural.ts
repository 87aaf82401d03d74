import type { Lang } from '../schemas.js';

/**
 * The plural categories each language's grammar tells apart, as CLDR (and so `Intl.PluralRules`) names them:
 * English and German say "1 comment" and "2 comments"; Spanish and French add `many` for round millions
 * ("1 000 000 de commentaires"), and French counts 0 as `one`; Chinese has one form. A plural label of a
 * language must give exactly these forms (the type below), and a test compares them with `Intl.PluralRules`.
 */
export const PLURAL_CATEGORIES = {
  en: ['one', 'other'],
  es: ['one', 'many', 'other'],
  fr: ['one', 'many', 'other'],
  de: ['one', 'other'],
  'zh-Hans': ['other'],
} as const satisfies Record<Lang, readonly Intl.LDMLPluralRule[]>;

/** A plural label in language `L`: one text per plural category of that language, each with a `{count}`. */
export type PluralForms<L extends Lang> = { readonly [C in (typeof PLURAL_CATEGORIES)[L][number]]: string };

/** The labels of `Source` (a catalogue in English) as written in `L`: texts stay texts, plural labels take L's forms. */
export type LabelsIn<Source, L extends Lang> = { readonly [K in keyof Source]: Source[K] extends string ? string : PluralForms<L> };

const rules = new Map<Lang, Intl.PluralRules>();
const numbers = new Map<Lang, Intl.NumberFormat>();

/** The form of `forms` that `count` takes in `lang`, with `{count}` written as `lang` writes numbers. */
export function pluralText(lang: Lang, forms: Readonly<Partial<Record<Intl.LDMLPluralRule, string>>>, count: number): string {
  let rule = rules.get(lang);
  let number = numbers.get(lang);
  if (!rule || !number) {
    rule = new Intl.PluralRules(lang);
    number = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
    rules.set(lang, rule);
    numbers.set(lang, number);
  }
  // every form is there (the catalogue types require them); `other` only guards a category Intl adds later
  const form = forms[rule.select(count)] ?? forms.other ?? '';
  return form.replaceAll('{count}', number.format(count));
}
