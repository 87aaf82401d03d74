import type { Lang } from '../../platform/i18n/index.js';

/** A site URL: `path` with the query parameters that have a value, `lang` always first (it is part of every page's address). */
export function href(path: string, lang: Lang, params: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams({ lang });
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(name, String(value));
  return `${path}?${query.toString()}`;
}

export const storyHref = (id: string, lang: Lang) => href(`/stories/${encodeURIComponent(id)}`, lang);

/** A person's profile: their display name is its address (a change of name moves it). */
export const personHref = (name: string, lang: Lang) => href(`/people/${encodeURIComponent(name)}`, lang);

export const botHref = (botId: string, lang: Lang) => href(`/bots/${encodeURIComponent(botId)}`, lang);
