import { t, type Lang } from '../../words/index.js';
import type { ConsoleArea } from '../access.js';
import { ConsoleLayout } from './layout.js';

/**
 * The 403 page of the console: which area is closed, and the key an operator puts on an allowlist
 * (CONTENT_ADMIN_IDS, REWARDS_ADMIN_IDS, CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS) to open it.
 */
export function ForbiddenPage(props: { lang: Lang; areas: readonly ConsoleArea[]; allowlistKey: string; area: ConsoleArea | null }) {
  const { lang } = props;
  return (
    <ConsoleLayout lang={lang} title={t(lang, 'console.forbidden.title')} areas={props.areas} path="/console">
      <h1>{t(lang, 'console.forbidden.title')}</h1>
      <p>
        {props.area
          ? t(lang, 'console.forbidden.area', { area: t(lang, `console.area.${props.area}`) })
          : t(lang, 'console.forbidden.none')}
      </p>
      <p>{t(lang, 'console.forbidden.key')}</p>
      <p>
        <code>{props.allowlistKey}</code>
      </p>
    </ConsoleLayout>
  );
}
