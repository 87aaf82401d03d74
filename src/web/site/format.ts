import type { Lang } from '../../platform/i18n/index.js';

/**
 * Dates and numbers written the way each language writes them (Intl, formatters built once per language).
 * Dates are shown in UTC, named as such, so a cached page reads the same for every reader.
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
