import type { ComponentChildren } from 'preact';
import { t, type Lang } from '../../words/index.js';
import type { ControlPlaneRequest } from '../../../governance/control-plane/schemas.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { Person, type People } from './control-plane.js';
import { ActionForm, Field, When } from './parts.js';
import { RewardsFrame } from './rewards.js';

/** The money requests of one action waiting for a second rewards admin or for their payout, as a rewards page lists them. */
export interface OpenMoneyRequests {
  requests: readonly ControlPlaneRequest[];
  people: People;
  /** The requests waiting for this person's approval. */
  waiting: ReadonlySet<string>;
  /** This person's identity key. */
  me: string;
}

type MoneyPayload = { totalPoolOrbs?: string; totalOrbs?: string; claimWindowDays?: string; previewDigest?: string };

/** What a money request pays, in orbs, and its words: "Run a settlement of 500 orbs", "Finalize a batch of 3 orbs …". */
export function moneyRequestWords(lang: Lang, item: Pick<ControlPlaneRequest, 'action' | 'payload'>) {
  const payload = item.payload as MoneyPayload;
  if (item.action === 'batch.finalize') {
    const orbs = payload.totalOrbs ?? '?';
    return {
      orbs,
      title: t(lang, 'console.rewards.finalizeOf', { orbs, days: payload.claimWindowDays ?? '?' }),
      mine: t(lang, 'console.rewards.otherAdminMustBatch'),
      use: { path: 'finalize', label: t(lang, 'console.rewards.finalizeApproved', { orbs }) },
    };
  }
  const orbs = payload.totalPoolOrbs ?? '?';
  return {
    orbs,
    title: t(lang, 'console.rewards.runOf', { orbs }),
    mine: t(lang, 'console.rewards.otherAdminMust'),
    use: { path: 'run', label: t(lang, 'console.rewards.runApproved', { orbs }) },
  };
}

/**
 * Each money request that needs two people, in words: what it pays, who asked and when, the reason, who approved,
 * what it changes (`details`), and what happens next. A PENDING one has **Approve paying … orbs** for the other
 * rewards admins (with a proof bound to the request); for the one who filed it, a line saying another admin must
 * and **Cancel this request** (a confirm page). An EXECUTED one has the run or finalize it was approved for.
 */
export function MoneyRequests(props: {
  lang: Lang;
  open: OpenMoneyRequests;
  back: string;
  title: string;
  empty: string;
  details?: (item: ControlPlaneRequest) => ComponentChildren;
  /** Whether an approved request can still be used as it is (no button for one its payout would refuse). */
  usable?: (item: ControlPlaneRequest) => boolean;
}) {
  const { lang, open } = props;
  return (
    <section aria-labelledby="second-approval">
      <h2 id="second-approval">{props.title}</h2>
      {open.requests.length === 0 ? <p>{props.empty}</p> : null}
      <ul class="requests">
        {open.requests.map((item) => {
          const payload = item.payload as MoneyPayload;
          const words = moneyRequestWords(lang, item);
          const mine = item.requestedBy === open.me;
          return (
            <li data-request={item.id}>
              <p>
                <strong>{words.title}</strong>{' '}
                {open.waiting.has(item.id) ? <strong class="tag-wait">{t(lang, 'console.controlPlane.waitingForYou')}</strong> : null}
              </p>
              <p class="meta">
                {t(lang, 'console.controlPlane.filedBy')} <Person people={open.people} who={item.requestedBy} /> ·{' '}
                <When lang={lang} at={item.createdAt} />
                {(item.approvals ?? []).map((a) => (
                  <>
                    {' '}
                    · {t(lang, 'console.rewards.approvedBy')} <Person people={open.people} who={a.approver} />
                  </>
                ))}
              </p>
              <p class="meta">
                {t(lang, 'console.rewards.reasonIs', { reason: item.reason })} · {t(lang, 'console.rewards.digest')}{' '}
                <code class="hash">{payload.previewDigest ?? ''}</code>
              </p>
              {props.details?.(item)}
              {item.status === 'PENDING' && mine ? (
                <p>
                  {words.mine}{' '}
                  <a href={href(`/console/rewards/requests/${encodeURIComponent(item.id)}/cancel`, lang)}>
                    {t(lang, 'console.rewards.cancelRequest')}
                  </a>
                </p>
              ) : null}
              {item.status === 'PENDING' && !mine ? (
                <ActionForm
                  lang={lang}
                  action={`/console/rewards/requests/${encodeURIComponent(item.id)}/approve`}
                  back={props.back}
                  submit={t(lang, 'console.rewards.approveRun', { orbs: words.orbs })}
                  proof={{ action: `control_plane_approve:${item.id}`, label: t(lang, 'console.prove') }}
                />
              ) : null}
              {item.status === 'EXECUTED' && (props.usable?.(item) ?? true) ? (
                <ActionForm
                  lang={lang}
                  action={`/console/rewards/requests/${encodeURIComponent(item.id)}/${words.use.path}`}
                  back={props.back}
                  submit={words.use.label}
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

/**
 * Cancelling one's own money request, asked once more on a page of its own: what it withdraws, that nothing is
 * paid, that it is audited; **Cancel the request** (with an optional reason) or back.
 */
export function CancelMoneyRequestPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  item: ControlPlaneRequest;
  people: People;
  /** The page that lists the request (settlements or claims). */
  back: string;
}) {
  const { lang, item } = props;
  const words = moneyRequestWords(lang, item);
  const here = href(`/console/rewards/requests/${encodeURIComponent(item.id)}/cancel`, lang);
  return (
    <RewardsFrame
      lang={lang}
      areas={props.areas}
      section={item.action === 'batch.finalize' ? 'claims' : 'settlements'}
      title={t(lang, 'console.rewards.cancelTitle')}
      path={`/console/rewards/requests/${encodeURIComponent(item.id)}/cancel`}
    >
      <p>
        <strong>{words.title}</strong>
      </p>
      <p class="meta">
        {t(lang, 'console.controlPlane.filedBy')} <Person people={props.people} who={item.requestedBy} /> ·{' '}
        <When lang={lang} at={item.createdAt} /> · {t(lang, 'console.rewards.reasonIs', { reason: item.reason })}
      </p>
      <p>{t(lang, 'console.rewards.cancelText')}</p>
      <ActionForm
        lang={lang}
        action={`/console/rewards/requests/${encodeURIComponent(item.id)}/cancel`}
        back={here}
        submit={t(lang, 'console.controlPlane.cancel')}
        danger
      >
        <input type="hidden" name="confirmed" value="1" />
        <Field id="cancel-reason" label={t(lang, 'console.rewards.cancelReason')}>
          <input id="cancel-reason" name="reason" maxLength={2000} />
        </Field>
      </ActionForm>
      <p>
        <a href={props.back}>{t(lang, 'console.rewards.keepRequest')}</a>
      </p>
    </RewardsFrame>
  );
}
