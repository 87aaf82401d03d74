import type { ComponentChildren } from 'preact';
import { t, type Lang } from '../../words/index.js';
import { ASSETS } from '../../site/assets.js';
import { href } from '../../site/links.js';
import { useVisitor } from '../../site/visitor.js';
import { PostForm } from '../../site/views/forms.js';
import { LanguageMenu } from '../../site/views/layout.js';
import type { ConsoleArea } from '../access.js';
import { CONSOLE_ASSETS } from '../assets.js';
import { ConsoleFlash } from './parts.js';

export interface ConsoleFrame {
  lang: Lang;
  title: string;
  /** The areas this person may open (the navigation shows only those). */
  areas: readonly ConsoleArea[];
  area?: ConsoleArea;
  /** This page's path and query without `lang`: the language links keep both. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** The page asks for a World ID proof in the page (approvals, ratifications). */
  proofs?: boolean;
}

export const AREA_PATHS: Record<ConsoleArea, string> = {
  moderation: '/console/moderation',
  governance: '/console/governance',
  'control-plane': '/console/control-plane',
  integrity: '/console/integrity',
  audit: '/console/audit',
  rewards: '/console/rewards',
};

/**
 * The frame of every console page: never indexed (robots meta and header), the site's style sheet and the
 * console's, the areas the person may open, the language switch and the logout. The page works without
 * JavaScript; with World ID logins, pages that ask for a proof load IDKit.
 */
export function ConsoleLayout(props: ConsoleFrame & { children: ComponentChildren }) {
  const { lang } = props;
  const visitor = useVisitor();
  return (
    <html lang={lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{`${props.title} · ${t(lang, 'console.title', { site: t(lang, 'module.home.title') })}`}</title>
        <link rel="icon" href={ASSETS.icon.path} type="image/svg+xml" />
        <link rel="stylesheet" href={ASSETS.css.path} />
        <link rel="stylesheet" href={CONSOLE_ASSETS.css.path} />
        {props.proofs && visitor.login === 'world-id' ? (
          <>
            <script src={ASSETS.idkit.path} defer />
            <script src={ASSETS.worldId.path} defer />
          </>
        ) : null}
      </head>
      <body class="console">
        <a class="skip" href="#main">
          {t(lang, 'site.skip')}
        </a>
        <header class="masthead">
          <div class="bar">
            <div>
              <a class="brand" href={href('/console', lang)}>
                {t(lang, 'console.title', { site: t(lang, 'module.home.title') })}
              </a>
              <p class="tagline">
                <a href={href('/', lang)}>{t(lang, 'console.toSite', { site: t(lang, 'module.home.title') })}</a>
              </p>
            </div>
            <LanguageMenu lang={lang} path={props.path} query={props.query} />
            {visitor.reader ? (
              <PostForm action="/logout" lang={lang} back={href('/', lang)} class="inline">
                <button type="submit" class="link">
                  {t(lang, 'account.logout')}
                </button>
              </PostForm>
            ) : null}
          </div>
          {props.areas.length ? (
            <nav class="sections" aria-label={t(lang, 'console.areas')}>
              <ul>
                {props.areas.map((area) => (
                  <li>
                    <a href={href(AREA_PATHS[area], lang)} aria-current={area === props.area ? 'page' : undefined}>
                      {t(lang, `console.area.${area}`)}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
        </header>
        <main id="main" tabIndex={-1}>
          <ConsoleFlash lang={lang} flash={visitor.flash} />
          {props.children}
        </main>
      </body>
    </html>
  );
}
