import { t, type Lang } from '../../words/index.js';
import type { ControlPlaneRequest } from '../../../governance/control-plane/schemas.js';
import { ROLES } from '../rewards-policy.js';
import { Person, type People } from './control-plane.js';
import { ActionForm, When } from './parts.js';
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

/** The settlement runs waiting for a second rewards admin or for their run, as the settlements page shows them. */
export interface OpenRuns {
  requests: readonly ControlPlaneRequest[];
  people: People;
  /** The requests waiting for this person's approval. */
  waiting: ReadonlySet<string>;
  /** This person's identity key. */
  me: string;
}

/**
 * Each settlement run that needs two people, in words: the pool, who asked and when, and what happens next. A
 * PENDING one has **Approve the run** for the other rewards admins (with a proof bound to the request), a line
 * saying another admin must for the one who filed it; an EXECUTED one has **Run the approved settlement**.
 */
export function MoneyRequests(props: { lang: Lang; runs: OpenRuns; back: string }) {
  const { lang, runs } = props;
  return (
    <section aria-labelledby="second-approval">
      <h2 id="second-approval">{t(lang, 'console.rewards.secondApprovals')}</h2>
      {runs.requests.length === 0 ? <p>{t(lang, 'console.rewards.noSecondApprovals')}</p> : null}
      <ul class="requests">
        {runs.requests.map((item) => {
          const payload = item.payload as { totalPoolOrbs?: string; previewDigest?: string };
          const mine = item.requestedBy === runs.me;
          return (
            <li data-request={item.id}>
              <p>
                <strong>{t(lang, 'console.rewards.runOf', { orbs: payload.totalPoolOrbs ?? '?' })}</strong>{' '}
                {runs.waiting.has(item.id) ? <strong class="tag-wait">{t(lang, 'console.controlPlane.waitingForYou')}</strong> : null}
              </p>
              <p class="meta">
                {t(lang, 'console.controlPlane.filedBy')} <Person people={runs.people} who={item.requestedBy} /> ·{' '}
                <When lang={lang} at={item.createdAt} />
                {(item.approvals ?? []).map((a) => (
                  <>
                    {' '}
                    · {t(lang, 'console.rewards.approvedBy')} <Person people={runs.people} who={a.approver} />
                  </>
                ))}
              </p>
              <p class="meta">
                {t(lang, 'console.rewards.reasonIs', { reason: item.reason })} · {t(lang, 'console.rewards.digest')}{' '}
                <code class="hash">{payload.previewDigest ?? ''}</code>
              </p>
              {item.status === 'PENDING' && mine ? <p>{t(lang, 'console.rewards.otherAdminMust')}</p> : null}
              {item.status === 'PENDING' && !mine ? (
                <ActionForm
                  lang={lang}
                  action={`/console/rewards/requests/${encodeURIComponent(item.id)}/approve`}
                  back={props.back}
                  submit={t(lang, 'console.rewards.approveRun', { orbs: payload.totalPoolOrbs ?? '?' })}
                  proof={{ action: `control_plane_approve:${item.id}`, label: t(lang, 'console.prove') }}
                />
              ) : null}
              {item.status === 'EXECUTED' ? (
                <ActionForm
                  lang={lang}
                  action={`/console/rewards/requests/${encodeURIComponent(item.id)}/run`}
                  back={props.back}
                  submit={t(lang, 'console.rewards.runApproved', { orbs: payload.totalPoolOrbs ?? '?' })}
                  danger
                />
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
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
