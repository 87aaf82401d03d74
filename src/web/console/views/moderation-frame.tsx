import type { ComponentChildren } from 'preact';
import { t, type Lang } from '../../words/index.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { ConsoleLayout } from './layout.js';
import { SectionNav } from './parts.js';

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
    <SectionNav
      label={t(props.lang, 'console.moderation.sections')}
      links={SECTIONS.map((s) => ({
        href: href(s.path, props.lang),
        text: t(props.lang, `console.moderation.section.${s.key}`),
        current: s.key === props.here,
      }))}
    />
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
