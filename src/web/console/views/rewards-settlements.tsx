import { PAYOUT_STATUSES } from '../rewards-forms.js';
import type { Static } from '@sinclair/typebox';
import { t, type Lang } from '../../words/index.js';
import type { PayoutsPage, SettlementDetail, SettlementsPage } from '../../../rewards/settlements/schemas.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { Chips, NextPage, When } from './parts.js';
import { Money, RewardsFrame, roleLabel } from './rewards.js';
import { MoneyRequests, type OpenMoneyRequests } from './money-requests.js';
import { Beneficiary, SHOWN, TotalsTable } from './rewards-settlement-parts.js';

const settlementHref = (id: string, lang: Lang, query: Record<string, string | undefined> = {}) =>
  href(`/console/rewards/settlements/${encodeURIComponent(id)}`, lang, query);

/** The settlements, newest first, and the form of a preview (a GET: it writes nothing). */
export function RewardsSettlementsPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  page: Static<typeof SettlementsPage>;
  cursor: string | null;
  runs: OpenMoneyRequests;
}) {
  const { lang, page } = props;
  return (
    <RewardsFrame
      lang={lang}
      areas={props.areas}
      section="settlements"
      title={t(lang, 'console.rewards.settlements')}
      path="/console/rewards/settlements"
      query={{ cursor: props.cursor ?? undefined }}
    >
      <section aria-labelledby="preview">
        <h2 id="preview">{t(lang, 'console.rewards.previewTitle')}</h2>
        <p>{t(lang, 'console.rewards.previewText')}</p>
        <form method="get" action="/console/rewards/settlements/preview" class="console-form">
          <input type="hidden" name="lang" value={lang} />
          <p class="field">
            <label for="pool">{t(lang, 'console.rewards.poolOrbs')}</label>
            <input id="pool" name="totalPoolOrbs" required inputMode="decimal" pattern="[0-9]+(\.[0-9]+)?" maxLength={100} />
          </p>
          <button type="submit">{t(lang, 'console.rewards.preview')}</button>
        </form>
      </section>
      <MoneyRequests
        lang={lang}
        open={props.runs}
        back={href('/console/rewards/settlements', lang)}
        title={t(lang, 'console.rewards.secondApprovals')}
        empty={t(lang, 'console.rewards.noSecondApprovals')}
      />
      <section aria-labelledby="settlements">
        <h2 id="settlements">{t(lang, 'console.rewards.settlementList')}</h2>
        {page.items.length === 0 ? <p>{t(lang, 'console.empty')}</p> : null}
        <table>
          <caption>{t(lang, 'console.rewards.settlementList')}</caption>
          <thead>
            <tr>
              <th scope="col">{t(lang, 'console.rewards.settlement')}</th>
              <th scope="col">{t(lang, 'console.when')}</th>
              <th scope="col">{t(lang, 'console.rewards.pool')}</th>
              <th scope="col">{t(lang, 'console.rewards.paid')}</th>
              <th scope="col">{t(lang, 'console.rewards.escrow')}</th>
              <th scope="col">{t(lang, 'console.rewards.stories')}</th>
              <th scope="col">{t(lang, 'console.rewards.payouts')}</th>
              <th scope="col">{t(lang, 'console.rewards.by')}</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((s) => (
              <tr>
                <th scope="row">
                  <a href={settlementHref(s.id, lang)}>{s.id}</a>
                </th>
                <td>
                  <When lang={lang} at={s.createdAt} />
                </td>
                <td class="num">
                  <Money lang={lang} amount={s.pool} />
                </td>
                <td class="num">
                  <Money lang={lang} amount={s.paid} />
                </td>
                <td class="num">
                  <Money lang={lang} amount={s.escrow} />
                </td>
                <td class="num">{s.storyCount}</td>
                <td class="num">{s.payoutCount}</td>
                <td>{s.createdBy}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <NextPage lang={lang} path="/console/rewards/settlements" cursor={page.nextCursor} />
      </section>
    </RewardsFrame>
  );
}

/** One settlement: its totals, the stories it covered, and its payouts (cursor paging, by state). */
export function RewardsSettlementPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  settlement: Static<typeof SettlementDetail>;
  payouts: Static<typeof PayoutsPage>;
  /** Beneficiaries' names by `KIND:id` (beneficiary-names.ts). */
  names: Readonly<Record<string, string>>;
  status: (typeof PAYOUT_STATUSES)[number] | null;
  cursor: string | null;
}) {
  const { lang, settlement, payouts } = props;
  const path = `/console/rewards/settlements/${encodeURIComponent(settlement.id)}`;
  return (
    <RewardsFrame
      lang={lang}
      areas={props.areas}
      section="settlements"
      title={t(lang, 'console.rewards.settlementTitle', { id: settlement.id })}
      path={path}
      query={{ status: props.status ?? undefined, cursor: props.cursor ?? undefined }}
    >
      <p class="meta">
        {t(lang, 'console.rewards.settlementMeta', {
          by: settlement.createdBy,
          version: settlement.policyVersion,
          stories: settlement.storyCount,
          payouts: settlement.payoutCount,
        })}{' '}
        <When lang={lang} at={settlement.createdAt} />
      </p>
      <TotalsTable lang={lang} totals={settlement} caption={t(lang, 'console.rewards.byRole')} />
      <details>
        <summary>{t(lang, 'console.rewards.storyIds', { count: settlement.storyIds.length })}</summary>
        <ul>
          {settlement.storyIds.slice(0, SHOWN).map((id) => (
            <li>
              <code>{id}</code>
            </li>
          ))}
        </ul>
      </details>

      <section aria-labelledby="payouts">
        <h2 id="payouts">{t(lang, 'console.rewards.payouts')}</h2>
        <Chips
          lang={lang}
          label={t(lang, 'console.status')}
          path={path}
          param="status"
          values={PAYOUT_STATUSES}
          current={props.status}
          word={(status) => t(lang, `console.payout.${status}`)}
          all
        />
        {payouts.items.length === 0 ? <p>{t(lang, 'console.empty')}</p> : null}
        <table>
          <caption>{t(lang, 'console.rewards.payoutsOf', { id: settlement.id })}</caption>
          <thead>
            <tr>
              <th scope="col">{t(lang, 'console.rewards.payout')}</th>
              <th scope="col">{t(lang, 'console.rewards.story')}</th>
              <th scope="col">{t(lang, 'console.rewards.role')}</th>
              <th scope="col">{t(lang, 'console.rewards.beneficiary')}</th>
              <th scope="col">{t(lang, 'console.rewards.amount')}</th>
              <th scope="col">{t(lang, 'console.status')}</th>
            </tr>
          </thead>
          <tbody>
            {payouts.items.map((p) => (
              <tr>
                <th scope="row">
                  <code>{p.id}</code>
                </th>
                <td>
                  <code>{p.storyId}</code>
                </td>
                <td>{roleLabel(lang, p.role)}</td>
                <td>
                  <Beneficiary lang={lang} names={props.names} kind={p.beneficiaryKind} id={p.beneficiaryId} />
                  {p.recipientId ? (
                    <>
                      <br />
                      <small>{t(lang, 'console.rewards.recipient', { id: p.recipientId })}</small>
                    </>
                  ) : null}
                </td>
                <td class="num">
                  <Money lang={lang} amount={p.amount} />
                </td>
                <td class={`status-${p.status}`}>
                  {t(lang, `console.payout.${p.status}`)}
                  {p.statusReason ? (
                    <>
                      <br />
                      <small>{p.statusReason}</small>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <NextPage lang={lang} path={path} query={{ status: props.status ?? undefined }} cursor={payouts.nextCursor} />
      </section>
      <p>
        <a href={href('/console/rewards/settlements', lang)}>{t(lang, 'console.rewards.toSettlements')}</a>
      </p>
    </RewardsFrame>
  );
}
