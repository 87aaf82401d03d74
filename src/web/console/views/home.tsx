import { t, type Lang } from '../../words/index.js';
import { href } from '../../site/links.js';
import type { ConsoleArea, ConsoleRoles } from '../access.js';
import { AREA_PATHS, ConsoleLayout } from './layout.js';
import { WhoAmI } from './parts.js';

/** The console's home: the areas this person's allowlists open, each with what it is for. */
export function ConsoleHomePage(props: { lang: Lang; areas: readonly ConsoleArea[]; roles: ConsoleRoles; allowlistKey: string }) {
  const { lang, roles } = props;
  const held = [roles.contentAdmin ? 'contentAdmin' : null, roles.rewardsAdmin ? 'rewardsAdmin' : null, roles.approver ? 'approver' : null]
    .filter((r): r is 'contentAdmin' | 'rewardsAdmin' | 'approver' => r !== null)
    .map((r) => t(lang, `console.role.${r}`));
  return (
    <ConsoleLayout lang={lang} title={t(lang, 'console.title', { site: t(lang, 'module.home.title') })} areas={props.areas} path="/console">
      <h1>{t(lang, 'console.title', { site: t(lang, 'module.home.title') })}</h1>
      <WhoAmI lang={lang} allowlistKey={props.allowlistKey} />
      <p>{t(lang, 'console.roles', { roles: held.join(', ') })}</p>
      <ul class="cards">
        {props.areas.map((area) => (
          <li>
            <h2>
              <a href={href(AREA_PATHS[area], lang)}>{t(lang, `console.area.${area}`)}</a>
            </h2>
            <p>{t(lang, `console.areaText.${area}`)}</p>
          </li>
        ))}
      </ul>
    </ConsoleLayout>
  );
}
