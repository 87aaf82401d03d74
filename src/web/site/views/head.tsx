import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { t, type Lang } from '../../words/index.js';
import { LANGS } from '../../../platform/schemas.js';
import { roomName } from '../format.js';
import { href } from '../links.js';

/** PUBLIC_BASE_URL while a page renders ('' on a page rendered outside the site's routes: no absolute links). */
export const BaseUrl = createContext('');

/** Open Graph locales (language_TERRITORY) of the site's languages. */
const OG_LOCALES: Record<Lang, string> = { en: 'en_US', es: 'es_ES', fr: 'fr_FR', de: 'de_DE', 'zh-Hans': 'zh_CN' };

export interface PageMetaProps {
  lang: Lang;
  /** The page's title, without the site's name. */
  title: string;
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  /** The meta and Open Graph description; the page's title and the site's tagline by default. */
  description?: string | undefined;
  /** 'article' for a story's pages. */
  ogType?: 'article' | undefined;
  /** A room's Atom feed, beside the newsroom's. */
  roomFeed?: string | undefined;
}

/**
 * The head elements that tell browsers, crawlers and link previews what a page is: the description, the canonical URL (this page in this language: `lang` is part of every address),
 * the same page in each language (hreflang, x-default the English one), Open Graph and the Atom feeds.
 */
export function PageMeta(props: PageMetaProps) {
  const base = useContext(BaseUrl);
  const { lang, path, query } = props;
  const url = (l: Lang) => `${base}${href(path, l, query)}`;
  const site = t(lang, 'module.home.title');
  const description = props.description || `${props.title} · ${t(lang, 'site.tagline')}`;
  return (
    <>
      <meta name="description" content={description} />
      {base ? <link rel="canonical" href={url(lang)} /> : null}
      {base ? LANGS.map((l) => <link rel="alternate" hreflang={l} href={url(l)} />) : null}
      {base ? <link rel="alternate" hreflang="x-default" href={url('en')} /> : null}
      <meta property="og:title" content={props.title} />
      <meta property="og:description" content={description} />
      <meta property="og:type" content={props.ogType ?? 'website'} />
      {base ? <meta property="og:url" content={url(lang)} /> : null}
      <meta property="og:site_name" content={site} />
      <meta property="og:locale" content={OG_LOCALES[lang]} />
      {LANGS.filter((l) => l !== lang).map((l) => (
        <meta property="og:locale:alternate" content={OG_LOCALES[l]} />
      ))}
      <link rel="alternate" type="application/atom+xml" title={site} href={`${base}/feed.atom?lang=${lang}`} />
      {props.roomFeed ? (
        <link
          rel="alternate"
          type="application/atom+xml"
          title={`${site} · ${roomName(lang, props.roomFeed)}`}
          href={`${base}/rooms/${encodeURIComponent(props.roomFeed)}/feed.atom?lang=${lang}`}
        />
      ) : null}
    </>
  );
}
