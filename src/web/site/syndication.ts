import type { FeedService } from '../../newsroom/feed/service.js';
import { t, type Lang } from '../words/index.js';
import { LANGS } from '../../platform/schemas.js';
import { roomName } from './format.js';
import { href, storyHref } from './links.js';
import { xmlEscape } from './xml.js';

/** Stories per feed document (the feed route's largest page). */
const FEED_ITEMS = 50;
/**
 * Stories per story sitemap. The protocol allows 50,000 URLs and 50 MB a file; 10,000 keeps each file near
 * 1.2 MB and its read a bounded scan. /sitemap.xml is always an index, so the layout is the same at any size.
 */
export const SITEMAP_STORIES = 10_000;
/** The pages the sitemap names in every language. */
const SITEMAP_PAGES = ['/', '/developing', '/under-review', '/reward-window', '/ledger', '/rankings'];

export const ATOM_NS = 'http://www.w3.org/2005/Atom';

/** An element's attributes, each value escaped (names are the writer's own). */
export const attributes = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlEscape(value)}"`)
    .join('');
/** One line of the Atom document: an element of text, or an empty one when `text` is null. */
export const line = (depth: number, name: string, text: string | null, attrs: Record<string, string> = {}) =>
  `${'    '.repeat(depth)}<${name}${attributes(attrs)}${text === null ? '/>' : `>${xmlEscape(text)}</${name}>`}`;

const urlset = (entries: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;

/**
 * What the web expects besides pages: Atom feeds (the newsroom's and each room's newest published, visible
 * stories, read through the feed service of the feed page and GET /v1/feed), the sitemap and robots.txt. Every
 * URL is absolute, on PUBLIC_BASE_URL (never on the request's Host: answers are cached and shared).
 */
export function createSyndicationService(deps: { feed: FeedService; baseUrl: string }) {
  const { feed, baseUrl } = deps;
  const abs = (path: string) => `${baseUrl}${path}`;

  return {
    baseUrl,

    /** The Atom document of the newest published stories, of one room or of all. */
    async atom(lang: Lang, room: string | undefined): Promise<string> {
      const page = await feed.feed({ lang, mode: 'recent', room, limit: FEED_ITEMS });
      const self = abs(room ? `/rooms/${room}/feed.atom?lang=${lang}` : `/feed.atom?lang=${lang}`);
      const newest = page.items[0]?.publishedAt;
      const title = room ? `${t(lang, 'module.home.title')} · ${roomName(lang, room)}` : t(lang, 'module.home.title');
      const lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        `<feed${attributes({ xmlns: ATOM_NS, 'xml:lang': lang })}>`,
        line(1, 'id', self),
        line(1, 'title', title),
        // the newest story's time, not the clock's: the same stories give the same document (and ETag)
        line(1, 'updated', new Date(newest ?? 0).toISOString()),
        line(1, 'generator', 'newsroom-service'),
        line(1, 'link', null, { rel: 'alternate', href: abs(href('/', lang, { mode: 'recent', room })) }),
        line(1, 'link', null, { rel: 'self', href: self }),
        line(1, 'subtitle', t(lang, 'site.tagline')),
      ];
      for (const item of page.items) {
        const link = abs(storyHref(item.id, item.lang as Lang));
        const date = new Date(item.publishedAt ?? 0).toISOString();
        // a story's title and summary are plain text a bot wrote, never markup for the feed reader to render
        lines.push(
          `    <entry${attributes({ 'xml:lang': item.lang })}>`,
          line(2, 'title', item.title, { type: 'text' }),
          line(2, 'id', link),
          line(2, 'link', null, { href: link }),
          line(2, 'updated', date),
          ...(item.summary ? [line(2, 'summary', item.summary, { type: 'text' })] : []),
          line(2, 'category', null, { term: item.room, label: roomName(lang, item.room) }),
          line(2, 'published', date),
          '    </entry>',
        );
      }
      lines.push('</feed>', '');
      return lines.join('\n');
    },

    /** The sitemap index: the pages' sitemap and one sitemap per SITEMAP_STORIES stories. */
    async sitemapIndex(): Promise<string> {
      const files = Math.ceil((await feed.listedStoryCount()) / SITEMAP_STORIES);
      const locs = [abs('/sitemaps/pages.xml'), ...Array.from({ length: files }, (_, i) => abs(`/sitemaps/stories-${i + 1}.xml`))];
      return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs
        .map((loc) => `<sitemap><loc>${xmlEscape(loc)}</loc></sitemap>`)
        .join('\n')}\n</sitemapindex>\n`;
    },

    /** The main pages, in every language. */
    sitemapPages(): string {
      return urlset(SITEMAP_PAGES.flatMap((path) => LANGS.map((lang) => `<url><loc>${xmlEscape(abs(href(path, lang)))}</loc></url>`)));
    },

    /** Stories file `n` (from 1): each story in its own language, with its last change; null past the last file. */
    async sitemapStories(n: number): Promise<string | null> {
      const rows = await feed.listedStoriesById((n - 1) * SITEMAP_STORIES, SITEMAP_STORIES);
      if (rows.length === 0 && n > 1) return null;
      return urlset(
        rows.map(
          (r) =>
            `<url><loc>${xmlEscape(abs(storyHref(r.id, r.lang as Lang)))}</loc><lastmod>${new Date(r.updated_at).toISOString()}</lastmod></url>`,
        ),
      );
    },

    /**
     * Crawlers may read the site, not the JSON API. The search page stays open to them (a shared search link is a
     * page people land on; crawlers do not fill in its form), and the personal pages need a login they cannot make.
     */
    robots(): string {
      return ['User-agent: *', 'Allow: /', 'Disallow: /v1/', 'Disallow: /console', `Sitemap: ${abs('/sitemap.xml')}`, ''].join('\n');
    },
  };
}
export type SyndicationService = ReturnType<typeof createSyndicationService>;
