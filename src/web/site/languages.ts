import type { Lang } from '../../platform/i18n/index.js';
import type { createUsersService } from '../../readers/users/service.js';
import type { ServiceCalls } from './calls.js';
import { actorOf } from './form-replies.js';
import type { SiteReader } from './session.js';

/**
 * The site's language for an Accept-Language header (RFC 9110): the language ranges in order of their q-values
 * (q=0 refuses one; equal values keep the header's order), each matched to one of the five by its primary
 * subtag (`fr-CA` is French; any Chinese but the traditional script, `zh`, `zh-CN`, `zh-Hans-SG`, is zh-Hans).
 * Nothing matches (or `*`, or no header): null, and the page is English.
 */
export function acceptedLang(header: string | undefined): Lang | null {
  if (!header) return null;
  const ranges = header
    .slice(0, 1024)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      // a malformed weight (q=abc) counts as a refusal
      const q = params.find((p) => /^\s*q\s*=/i.test(p));
      const weight = q === undefined ? 1 : Number(/^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(q)?.[1] ?? 0);
      return { tag: tag.trim().toLowerCase(), weight: Number.isFinite(weight) ? Math.min(weight, 1) : 0, index };
    })
    .filter((range) => range.weight > 0 && range.tag !== '')
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranges) {
    const lang = matchTag(tag);
    if (lang) return lang;
  }
  return null;
}

function matchTag(tag: string): Lang | null {
  const [primary, ...rest] = tag.split('-');
  switch (primary) {
    case 'en':
    case 'es':
    case 'fr':
    case 'de':
      return primary;
    case 'zh':
      // Traditional Chinese (zh-Hant, or the regions that write it) is not one of the site's languages
      return rest.some((sub) => ['hant', 'tw', 'hk', 'mo'].includes(sub)) ? null : 'zh-Hans';
    default:
      return null;
  }
}

/** The language a logged-in reader saved in their preferences (the service keeps it), if they chose one. */
export async function savedLang(
  calls: ServiceCalls,
  users: Pick<ReturnType<typeof createUsersService>, 'getPreferences'>,
  reader: SiteReader,
): Promise<Lang | undefined> {
  const prefs = await calls.read(actorOf(reader), (actor) => users.getPreferences(actor));
  return prefs.ok ? prefs.body.preferences.lang : undefined;
}

/** A site path with its `lang` set to `lang` (in place, or added at the end). */
export function withLang(path: string, lang: Lang): string {
  const url = new URL(path, 'http://site.invalid');
  url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}${url.hash}`;
}
