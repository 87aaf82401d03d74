import { t, type Lang } from '../../words/index.js';
import { href } from '../../site/links.js';
import type { ConsoleArea, ConsoleRoles } from '../access.js';
import { waitingTotal, type WaitingItem } from '../waiting.js';
import { AREA_PATHS, ConsoleLayout } from './layout.js';
import { WhoAmI } from './parts.js';

/**
 * The console's home: first what waits for this person (counted in the areas their allowlists open, each a link
 * to the page that lists it; a zero says "nothing waiting"), then the areas, each with what it is for.
 */
export function ConsoleHomePage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  roles: ConsoleRoles;
  allowlistKey: string;
  waiting: readonly WaitingItem[];
}) {
  const { lang, roles } = props;
  const held = [roles.contentAdmin ? 'contentAdmin' : null, roles.rewardsAdmin ? 'rewardsAdmin' : null, roles.approver ? 'approver' : null]
    .filter((r): r is 'contentAdmin' | 'rewardsAdmin' | 'approver' => r !== null)
    .map((r) => t(lang, `console.role.${r}`));
  const total = waitingTotal(props.waiting);
  return (
    <ConsoleLayout lang={lang} title={t(lang, 'console.title', { site: t(lang, 'module.home.title') })} areas={props.areas} path="/console">
      <h1>{t(lang, 'console.title', { site: t(lang, 'module.home.title') })}</h1>
      <WhoAmI lang={lang} allowlistKey={props.allowlistKey} />
      <p>{t(lang, 'console.roles', { roles: held.join(', ') })}</p>
      <section aria-labelledby="waiting">
        <h2 id="waiting">{total > 0 ? t(lang, 'console.waiting.title', { count: total }) : t(lang, 'console.waiting.nothing')}</h2>
        <ul class="waiting">
          {props.waiting.map((item) => (
            <li class={item.count > 0 ? 'due' : 'clear'} data-kind={item.kind}>
              <a href={href(item.path, lang, item.query)}>{t(lang, `console.waiting.${item.kind}`)}</a>{' '}
              {item.count > 0 ? <strong class="count">{item.count}</strong> : <span class="none">{t(lang, 'console.waiting.none')}</span>}
            </li>
          ))}
        </ul>
      </section>
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
