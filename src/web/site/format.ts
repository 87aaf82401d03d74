import { isLabelKey, t, type Lang } from '../words/index.js';

/**
 * Dates and numbers written the way each language writes them (Intl, formatters built once per language).
 * An exact date is shown in UTC, named as such, so a cached page reads the same for every reader.
 */
const dateFormats = new Map<Lang, Intl.DateTimeFormat>();
const numberFormats = new Map<Lang, Intl.NumberFormat>();

export function formatDate(lang: Lang, iso: string): string {
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'UTC',
      timeZoneName: 'short',
    });
    dateFormats.set(lang, format);
  }
  return format.format(new Date(iso));
}

export function formatNumber(lang: Lang, value: number): string {
  let format = numberFormats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
    numberFormats.set(lang, format);
  }
  return format.format(value);
}

const percentFormats = new Map<Lang, Intl.NumberFormat>();

/** A ratio (0.4) as a percentage in the reader's language (40 %). */
export function formatPercent(lang: Lang, ratio: number): string {
  let format = percentFormats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
    percentFormats.set(lang, format);
  }
  return format.format(ratio);
}

const relativeFormats = new Map<Lang, Intl.RelativeTimeFormat>();
const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/**
 * How long ago `iso` was at `now`, in the reader's language ("3 hours ago", "vor 3 Stunden"): the largest unit
 * that fits, rounded down. Pages show it beside the exact time (formatDate) in a <time> element.
 */
export function formatRelative(lang: Lang, iso: string, now: number): string {
  let format = relativeFormats.get(lang);
  if (!format) {
    format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
    relativeFormats.set(lang, format);
  }
  let amount = Math.max(0, (now - Date.parse(iso)) / 1000);
  for (const [unit, size] of RELATIVE_STEPS) {
    if (amount < size) return format.format(-Math.floor(amount), unit);
    amount /= size;
  }
  return format.format(-Math.floor(amount), 'year');
}

const languageNames = new Map<Lang, Intl.DisplayNames>();

/** A language (a BCP 47 tag: a story's `lang`) named in the reader's language ("Spanish", "Spanisch", "西班牙语"). */
export function languageName(lang: Lang, code: string): string {
  let names = languageNames.get(lang);
  if (!names) {
    names = new Intl.DisplayNames(lang, { type: 'language' });
    languageNames.set(lang, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code; // not a well-formed tag: shown as the service gave it
  }
}

/** Whether a text in `code` reads as the page's language (the same primary language: `zh` and `zh-Hans`). */
export function sameLanguage(lang: Lang, code: string): boolean {
  return code.split('-')[0]!.toLowerCase() === lang.split('-')[0]!.toLowerCase();
}

/**
 * A room by its name in the reader's language: the newsroom's usual rooms are translated in the catalogues
 * (`site.room.<slug>`); any other room's slug is written as words ("local-politics": "Local politics").
 */
export function roomName(lang: Lang, slug: string): string {
  const key = `site.room.${slug}`;
  if (isLabelKey(lang, key)) return t(lang, key);
  const words = slug.replace(/-+/g, ' ').trim();
  return words.charAt(0).toLocaleUpperCase(lang) + words.slice(1);
}
