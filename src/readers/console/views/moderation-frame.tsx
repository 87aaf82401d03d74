import type { ComponentChildren } from 'preact';
import { t, type Lang } from '../../../platform/i18n/index.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { ConsoleLayout } from './layout.js';

export interface Frame {
  lang: Lang;
  areas: readonly ConsoleArea[];
}

export const enc = encodeURIComponent;
export const storyPage = (id: string, lang: Lang, params: Record<string, string> = {}) =>
  href(`/console/moderation/stories/${enc(id)}`, lang, params);
export const deliveriesHref = (lang: Lang, params: Record<string, string | undefined> = {}) =>
  href('/console/moderation/webhooks', lang, params);

const SECTIONS = [
  { key: 'quarantine', path: '/console/moderation' },
  { key: 'holds', path: '/console/moderation/legal-holds' },
  { key: 'sources', path: '/console/moderation/sources' },
  { key: 'stories', path: '/console/moderation/stories' },
  { key: 'webhooks', path: '/console/moderation/webhooks' },
] as const;
type Section = (typeof SECTIONS)[number]['key'];

/** The moderation area's own navigation (under the console's). */
function ModerationNav(props: { lang: Lang; here: Section | null }) {
  return (
    <nav aria-label={t(props.lang, 'console.moderation.sections')}>
      <ul class="chips">
        {SECTIONS.map((s) => (
          <li>
            <a href={href(s.path, props.lang)} aria-current={s.key === props.here ? 'page' : undefined}>
              {t(props.lang, `console.moderation.section.${s.key}`)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function ModerationFrame(
  props: Frame & {
    title: string;
    here: Section | null;
    path: string;
    query?: Record<string, string | undefined>;
    children: ComponentChildren;
  },
) {
  return (
    <ConsoleLayout lang={props.lang} title={props.title} areas={props.areas} area="moderation" path={props.path} query={props.query}>
      <h1>{props.title}</h1>
      <ModerationNav lang={props.lang} here={props.here} />
      {props.children}
    </ConsoleLayout>
  );
}

/** Filter links: "all" and one per value, the current one marked. */
export function Chips<T extends string>(props: {
  lang: Lang;
  label: string;
  path: string;
  param: string;
  values: readonly T[];
  current: T | null;
  word: (value: T) => string;
  all?: boolean;
  query?: Record<string, string | undefined>;
}) {
  return (
    <nav aria-label={props.label}>
      <ul class="chips">
        {props.all ? (
          <li>
            <a href={href(props.path, props.lang, props.query)} aria-current={props.current === null ? 'page' : undefined}>
              {t(props.lang, 'console.all')}
            </a>
          </li>
        ) : null}
        {props.values.map((value) => (
          <li>
            <a
              href={href(props.path, props.lang, { ...props.query, [props.param]: value })}
              aria-current={props.current === value ? 'page' : undefined}
            >
              {props.word(value)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
