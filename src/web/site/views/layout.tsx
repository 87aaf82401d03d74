import type { ComponentChildren } from 'preact';
import { t, type Lang } from '../../words/index.js';
import { ASSETS } from '../assets.js';
import { href } from '../links.js';
import { useVisitor } from '../visitor.js';
import { AccountLinks } from './account-links.js';
import { FlashMessage } from './forms.js';
import { PageMeta, type PageMetaProps } from './head.js';

/** Each language named in itself (a name, not a label: the same in every catalogue). */
export const LANG_NAMES: Record<Lang, string> = { en: 'English', es: 'Español', fr: 'Français', de: 'Deutsch', 'zh-Hans': '简体中文' };

export type Section = 'feed' | 'developing' | 'under-review' | 'reward-window' | 'ledger' | 'rankings' | 'search' | 'story' | 'account';

const SECTIONS = [
  ['feed', '/', 'module.feed.title'],
  ['developing', '/developing', 'module.developing.title'],
  ['under-review', '/under-review', 'module.underReview.title'],
  ['reward-window', '/reward-window', 'module.rewardWindow.title'],
  ['ledger', '/ledger', 'module.ledger.title'],
  ['rankings', '/rankings', 'module.rankings.title'],
  ['search', '/search', 'module.search.title'],
] as const;

export interface PageFrame {
  lang: Lang;
  title: string;
  section: Section;
  /** This page's path and query without `lang`: the language links keep both. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** The page runs World ID's IDKit (the login step); a logged-in reader's pages do when people log in with World ID. */
  worldId?: boolean;
  /** Head metadata beyond the frame's (views/head.tsx). */
  meta?: Pick<PageMetaProps, 'description' | 'ogType' | 'roomFeed'>;
}

/**
 * The frame of every page: skip link, masthead, sections, language switch, main, footer. The masthead stays
 * short on a phone, so that three headlines show above the fold: the language switch is a details menu (no
 * script needed; the script closes it on Escape), and on narrow screens the tagline is hidden and the sections
 * scroll sideways in one row. A logged-out reader reads right under it, in one line at the top of the main
 * content, what the site is (instead of the tagline).
 */
export function Layout(props: PageFrame & { children: ComponentChildren }) {
  const { lang, section } = props;
  const visitor = useVisitor();
  return (
    <html lang={lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{`${props.title} · ${t(lang, 'module.home.title')}`}</title>
        <PageMeta lang={lang} title={props.title} path={props.path} query={props.query} {...props.meta} />
        <link rel="icon" href={ASSETS.icon.path} type="image/svg+xml" />
        <link rel="stylesheet" href={ASSETS.css.path} />
        <script src={ASSETS.js.path} defer />
        {props.worldId || (visitor.reader && visitor.login === 'world-id') ? (
          <>
            <script src={ASSETS.idkit.path} defer />
            <script src={ASSETS.worldId.path} defer />
          </>
        ) : null}
      </head>
      <body>
        <a class="skip" href="#main">
          {t(lang, 'site.skip')}
        </a>
        <header class="masthead">
          <div class="bar">
            <div>
              <a class="brand" href={href('/', lang)}>
                {t(lang, 'module.home.title')}
              </a>
              {visitor.reader ? <p class="tagline">{t(lang, 'site.tagline')}</p> : null}
            </div>
            <LanguageMenu lang={lang} path={props.path} query={props.query} />
            <AccountLinks lang={lang} path={props.path} query={props.query} />
          </div>
          <nav class="sections" aria-label={t(lang, 'site.sections')}>
            <ul>
              {SECTIONS.map(([id, path, key]) => (
                <li>
                  <a href={href(path, lang)} aria-current={id === section ? 'page' : undefined}>
                    {t(lang, key)}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main" tabIndex={-1}>
          {visitor.reader ? null : <p class="about">{t(lang, 'site.about')}</p>}
          <FlashMessage lang={lang} flash={visitor.flash} />
          {props.children}
        </main>
        <footer>
          <p>
            {t(lang, visitor.reader ? 'site.footer.reader' : 'site.footer')}{' '}
            <a href={href('/how-it-works', lang)}>{t(lang, 'site.how.title')}</a> · <a href="/docs">{t(lang, 'site.apiDocs')}</a>
          </p>
        </footer>
      </body>
    </html>
  );
}

/**
 * The language switch: a details menu (no script needed) of this page's address in each language, each
 * language named in itself.
 */
export function LanguageMenu(props: { lang: Lang; path: string; query?: Record<string, string | number | undefined> }) {
  const { lang } = props;
  return (
    <details class="langs-menu">
      <summary>
        {t(lang, 'site.languages')}: {LANG_NAMES[lang]}
      </summary>
      <nav aria-label={t(lang, 'site.languages')}>
        <ul class="langs">
          {Object.entries(LANG_NAMES).map(([code, name]) => (
            <li>
              <a
                href={href(props.path, code as Lang, props.query)}
                hreflang={code}
                lang={code}
                aria-current={code === lang ? 'true' : undefined}
              >
                {name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}
