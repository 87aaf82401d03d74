import { t, type Lang } from '../../words/index.js';
import {
  CONTROL_PLANE_STATUSES,
  type ControlPlaneRequest,
  type ControlPlaneRequestList,
} from '../../../governance/control-plane/schemas.js';
import { isParameterName, parameterSpec } from '../../../governance/parameters/parameters.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { parameterDescription } from './governance.js';
import { ConsoleLayout } from './layout.js';
import { ActionForm, Chips, Field, JsonBlock, NextPage, When } from './parts.js';

const requestHref = (id: string, lang: Lang) => href(`/console/control-plane/${encodeURIComponent(id)}`, lang);

/** Display names by identity key (a key without a name is shown as itself). */
export type People = Readonly<Record<string, string>>;

/** A person by their display name, their key in the title (the key itself when they have no name). */
export const Person = (props: { people: People; who: string }) => (
  <span class="person" title={props.who}>
    {props.people[props.who] ?? <code>{props.who}</code>}
  </span>
);

/** One parameter a request changes: its name, the value in force now (when the request is still open) and after. */
interface Change {
  name: string;
  from: number | undefined;
  to: unknown;
}

const isOpen = (item: ControlPlaneRequest) => item.status === 'PENDING' || item.status === 'EXECUTED';

/** The parameters a request changes, from its payload: a proposal's `changes`, an emergency's `overlay`. */
function changesOf(item: ControlPlaneRequest, current: Readonly<Record<string, number>>): Change[] {
  const payload = (item.payload ?? {}) as Record<string, unknown>;
  const values =
    item.action === 'governance.activate' ? payload.changes : item.action === 'governance.emergency.apply' ? payload.overlay : null;
  if (!values || typeof values !== 'object') return [];
  return Object.entries(values as Record<string, unknown>).map(([name, to]) => ({
    name,
    from: isOpen(item) ? current[name] : undefined,
    to,
  }));
}

/** What a request does, in one sentence of the page's language. */
function summaryOf(lang: Lang, item: ControlPlaneRequest): string {
  if (item.action === 'governance.activate') return t(lang, 'console.controlPlane.does.activate', { id: item.target });
  if (item.action === 'governance.emergency.apply') return t(lang, 'console.controlPlane.does.apply');
  return t(lang, 'console.controlPlane.does.clear');
}

/**
 * The changes of a request in words: each parameter's meaning in the page's language, the value in force now →
 * the value after, and its valid range; the dotted name stays visible for who reads the payload.
 */
function Changes(props: { lang: Lang; changes: readonly Change[] }) {
  const { lang } = props;
  if (props.changes.length === 0) return null;
  return (
    <ul class="changes">
      {props.changes.map((change) => {
        const spec = isParameterName(change.name) ? parameterSpec(change.name) : null;
        return (
          <li>
            <span class="meaning">{spec ? parameterDescription(lang, change.name, spec.description) : change.name}</span>{' '}
            <span class="values">
              {change.from !== undefined ? (
                <>
                  <del>{change.from}</del> → <ins>{String(change.to)}</ins>
                </>
              ) : (
                <ins>{String(change.to)}</ins>
              )}
            </span>{' '}
            <small>
              <code>{change.name}</code>
              {spec ? ` · ${t(lang, 'console.controlPlane.range', { min: spec.min, max: spec.max })}` : ''}
            </small>
          </li>
        );
      })}
    </ul>
  );
}

/** The mark of a request that waits for this person's approval. */
const WaitingMark = (props: { lang: Lang }) => <strong class="tag-wait">{t(props.lang, 'console.controlPlane.waitingForYou')}</strong>;

export function ControlPlaneListPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  page: ControlPlaneRequestList;
  status: (typeof CONTROL_PLANE_STATUSES)[number] | null;
  approver: boolean;
  people: People;
  /** The ids of the requests waiting for this person's approval. */
  waiting: ReadonlySet<string>;
  /** The parameters in force now. */
  current: Readonly<Record<string, number>>;
}) {
  const { lang, page } = props;
  return (
    <ConsoleLayout
      lang={lang}
      title={t(lang, 'console.area.control-plane')}
      areas={props.areas}
      area="control-plane"
      path="/console/control-plane"
      query={{ status: props.status ?? undefined }}
    >
      <h1>{t(lang, 'console.area.control-plane')}</h1>
      <p class="meta">{props.approver ? t(lang, 'console.controlPlane.youApprove') : t(lang, 'console.controlPlane.notApprover')}</p>
      <Chips
        lang={lang}
        label={t(lang, 'console.status')}
        path="/console/control-plane"
        param="status"
        values={CONTROL_PLANE_STATUSES}
        current={props.status}
        word={(status) => t(lang, `console.request.${status}`)}
        all
      />
      {page.items.length === 0 ? <p>{t(lang, 'console.empty')}</p> : null}
      <ol class="requests">
        {page.items.map((item) => (
          <li class={props.waiting.has(item.id) ? 'request waiting' : 'request'}>
            <h2>
              <a href={requestHref(item.id, lang)}>{summaryOf(lang, item)}</a>
            </h2>
            <p class="meta">
              <span class={`status-${item.status}`}>{t(lang, `console.request.${item.status}`)}</span> ·{' '}
              {t(lang, 'console.controlPlane.approvalsOf', { count: item.approvalCount, required: item.approvalsRequired })} ·{' '}
              {t(lang, 'console.controlPlane.filedBy')} <Person people={props.people} who={item.requestedBy} /> ·{' '}
              <When lang={lang} at={item.createdAt} /> · <code>{item.id}</code>
              {props.waiting.has(item.id) ? (
                <>
                  {' '}
                  · <WaitingMark lang={lang} />
                </>
              ) : null}
            </p>
            <Changes lang={lang} changes={changesOf(item, props.current)} />
          </li>
        ))}
      </ol>
      <NextPage lang={lang} path="/console/control-plane" query={{ status: props.status ?? undefined }} cursor={page.nextCursor} />
    </ConsoleLayout>
  );
}

/** The button of an approved request: the change it was approved for, made with it. */
function UseForm(props: { lang: Lang; item: ControlPlaneRequest; back: string }) {
  const { lang, item } = props;
  const action = `/console/control-plane/${encodeURIComponent(item.id)}/use`;
  if (item.action === 'governance.activate')
    return (
      <ActionForm
        lang={lang}
        action={action}
        back={props.back}
        submit={t(lang, 'console.controlPlane.use.activate', { id: item.target })}
      />
    );
  if (item.action === 'governance.emergency.apply')
    return <ActionForm lang={lang} action={action} back={props.back} submit={t(lang, 'console.controlPlane.use.apply')} />;
  return (
    <ActionForm lang={lang} action={action} back={props.back} submit={t(lang, 'console.controlPlane.use.clear')}>
      <Field id="use-reason" label={t(lang, 'console.reason')}>
        <input id="use-reason" name="reason" maxLength={2000} />
      </Field>
    </ActionForm>
  );
}

/**
 * One request as an approver sees it: what it does in words (each parameter's meaning, now → after, its range),
 * the action, the target, the payload exactly as it will be executed and its SHA-256 (what the approval
 * approves), the approvals so far (who and when, by display name), and the forms this person may use: approve
 * (the last approval executes it), then the change it was approved for, and cancel. The requester sees the
 * approve button too: the service refuses their own approval, and the page says so.
 */
export function ControlPlaneRequestPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  item: ControlPlaneRequest;
  approver: boolean;
  me: string;
  people: People;
  waitingForMe: boolean;
  current: Readonly<Record<string, number>>;
}) {
  const { lang, item, people } = props;
  const back = requestHref(item.id, lang);
  const mine = item.requestedBy === props.me;
  const approvedByMe = (item.approvals ?? []).some((a) => a.approver === props.me);
  const executes = item.approvalCount + 1 >= item.approvalsRequired;
  return (
    <ConsoleLayout lang={lang} title={item.id} areas={props.areas} area="control-plane" path={`/console/control-plane/${item.id}`} proofs>
      <p>
        <a href={href('/console/control-plane', lang)}>{t(lang, 'console.controlPlane.back')}</a>
      </p>
      <h1>{summaryOf(lang, item)}</h1>
      <p class="meta">
        <span class={`status-${item.status}`}>{t(lang, `console.request.${item.status}`)}</span> ·{' '}
        {t(lang, 'console.controlPlane.approvalsOf', { count: item.approvalCount, required: item.approvalsRequired })}
        {props.waitingForMe ? (
          <>
            {' '}
            · <WaitingMark lang={lang} />
          </>
        ) : null}
      </p>
      <Changes lang={lang} changes={changesOf(item, props.current)} />
      <dl class="facts">
        <dt>{t(lang, 'console.controlPlane.request')}</dt>
        <dd>
          <code>{item.id}</code>
        </dd>
        <dt>{t(lang, 'console.controlPlane.action')}</dt>
        <dd>
          <code>{item.action}</code>
        </dd>
        <dt>{t(lang, 'console.controlPlane.target')}</dt>
        <dd>
          <code>{item.target}</code>
        </dd>
        <dt>{t(lang, 'console.reason')}</dt>
        <dd>{item.reason}</dd>
        <dt>{t(lang, 'console.controlPlane.requestedBy')}</dt>
        <dd>
          <Person people={people} who={item.requestedBy} />
          {mine ? ` (${t(lang, 'console.controlPlane.you')})` : ''} · <When lang={lang} at={item.createdAt} />
        </dd>
        <dt>{t(lang, 'console.controlPlane.payloadHash')}</dt>
        <dd>
          <code class="hash">{item.payloadHash}</code>
        </dd>
      </dl>
      {item.status === 'PENDING' && props.approver ? (
        <section aria-labelledby="approve">
          <h2 id="approve">{t(lang, 'console.controlPlane.approve')}</h2>
          <p>{t(lang, 'console.controlPlane.approveText', { hash: item.payloadHash })}</p>
          {executes ? <p>{t(lang, 'console.controlPlane.lastApproval')}</p> : null}
          {mine ? <p class="tag-warn">{t(lang, 'console.controlPlane.ownRequest')}</p> : null}
          {approvedByMe ? <p class="tag-ok">{t(lang, 'console.controlPlane.approvedByYou')}</p> : null}
          <ActionForm
            lang={lang}
            action={`/console/control-plane/${encodeURIComponent(item.id)}/approve`}
            back={back}
            submit={t(lang, executes ? 'console.controlPlane.approveExecute' : 'console.controlPlane.approve')}
            proof={{ action: `control_plane_approve:${item.id}`, label: t(lang, 'console.prove') }}
          />
        </section>
      ) : null}
      {item.status === 'EXECUTED' ? (
        <section aria-labelledby="use">
          <h2 id="use">{t(lang, 'console.controlPlane.useTitle')}</h2>
          <p>{t(lang, 'console.controlPlane.useText')}</p>
          <UseForm lang={lang} item={item} back={back} />
        </section>
      ) : null}
      <h2>{t(lang, 'console.controlPlane.payload')}</h2>
      <JsonBlock value={item.payload} label={t(lang, 'console.controlPlane.payload')} />
      <h2>
        {t(lang, 'console.controlPlane.approvals')} ({item.approvalCount} / {item.approvalsRequired})
      </h2>
      {item.approvals?.length ? (
        <ul class="list">
          {(item.approvals ?? []).map((approval) => (
            <li>
              <Person people={people} who={approval.approver} /> · <When lang={lang} at={approval.approvedAt} />
            </li>
          ))}
        </ul>
      ) : (
        <p>{t(lang, 'console.controlPlane.noApprovals')}</p>
      )}
      {item.executedAt ? (
        <p>
          {t(lang, 'console.controlPlane.executedAt')} <When lang={lang} at={item.executedAt} />
        </p>
      ) : null}
      {item.consumedAt ? (
        <p>
          {t(lang, 'console.controlPlane.consumedAt', { by: item.consumedBy ?? '' })} <When lang={lang} at={item.consumedAt} />
        </p>
      ) : null}
      {item.cancelledAt ? (
        <p>
          {t(lang, 'console.controlPlane.cancelledAt', {
            by: people[item.cancelledBy ?? ''] ?? item.cancelledBy ?? '',
            reason: item.cancelReason ?? '—',
          })}{' '}
          <When lang={lang} at={item.cancelledAt} />
        </p>
      ) : null}
      {isOpen(item) ? (
        <ActionForm
          lang={lang}
          action={`/console/control-plane/${encodeURIComponent(item.id)}/cancel`}
          back={back}
          submit={t(lang, 'console.controlPlane.cancel')}
          danger
        >
          <Field id="cancel-reason" label={t(lang, 'console.reason')}>
            <input id="cancel-reason" name="reason" maxLength={2000} />
          </Field>
        </ActionForm>
      ) : null}
    </ConsoleLayout>
  );
}
