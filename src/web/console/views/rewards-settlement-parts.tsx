import { t, type Lang } from '../../words/index.js';
import { ROLES } from '../rewards-policy.js';
import { Money, roleLabel } from './rewards.js';

type Amount = { display: string; base: string };
type Totals = {
  pool: Amount;
  escrow: Amount;
  paid: Amount;
  roles: Record<(typeof ROLES)[number], { pool: Amount; paid: Amount; weight: string }>;
};
/** How many of a settlement's story ids and a preview's beneficiaries a page lists. */
export const SHOWN = 100;

/** Pool, escrow and paid, and each role's share, paid amount and total weight. */
export function TotalsTable(props: { lang: Lang; totals: Totals; caption: string }) {
  const { lang, totals } = props;
  return (
    <>
      <dl class="totals">
        <dt>{t(lang, 'console.rewards.pool')}</dt>
        <dd>
          <Money lang={lang} amount={totals.pool} />
        </dd>
        <dt>{t(lang, 'console.rewards.escrow')}</dt>
        <dd>
          <Money lang={lang} amount={totals.escrow} />
        </dd>
        <dt>{t(lang, 'console.rewards.paid')}</dt>
        <dd>
          <Money lang={lang} amount={totals.paid} />
        </dd>
      </dl>
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t(lang, 'console.rewards.role')}</th>
            <th scope="col">{t(lang, 'console.rewards.share')}</th>
            <th scope="col">{t(lang, 'console.rewards.paid')}</th>
            <th scope="col">{t(lang, 'console.rewards.weight')}</th>
          </tr>
        </thead>
        <tbody>
          {ROLES.map((role) => (
            <tr>
              <th scope="row">{roleLabel(lang, role)}</th>
              <td class="num">
                <Money lang={lang} amount={totals.roles[role].pool} />
              </td>
              <td class="num">
                <Money lang={lang} amount={totals.roles[role].paid} />
              </td>
              <td class="num">{totals.roles[role].weight}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** A beneficiary by name (a bot's name, a person's display name), the id in the title; without a name, "a bot" or "a person". */
export function Beneficiary(props: { lang: Lang; names: Readonly<Record<string, string>>; kind: 'BOT' | 'HUMAN'; id: string }) {
  const name = props.names[`${props.kind}:${props.id}`];
  const kind = props.kind === 'BOT' ? t(props.lang, 'console.rewards.bot') : t(props.lang, 'console.rewards.person');
  return (
    <span class="beneficiary" title={props.id}>
      {name ? (
        <>
          {name} <small>({kind})</small>
        </>
      ) : (
        t(props.lang, props.kind === 'BOT' ? 'console.rewards.unnamedBot' : 'console.rewards.unnamedPerson')
      )}
    </span>
  );
}
