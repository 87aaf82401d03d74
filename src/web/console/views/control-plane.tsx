import { t, type Lang } from '../../words/index.js';
import {
  CONTROL_PLANE_STATUSES,
  type ControlPlaneRequest,
  type ControlPlaneRequestList,
} from '../../../governance/control-plane/schemas.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { ConsoleLayout } from './layout.js';
import { ActionForm, Chips, Field, JsonBlock, NextPage, When } from './parts.js';

const requestHref = (id: string, lang: Lang) => href(`/console/control-plane/${encodeURIComponent(id)}`, lang);

export function ControlPlaneListPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  page: ControlPlaneRequestList;
  status: (typeof CONTROL_PLANE_STATUSES)[number] | null;
  approver: boolean;
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
      <table>
        <thead>
          <tr>
            <th scope="col">{t(lang, 'console.controlPlane.request')}</th>
            <th scope="col">{t(lang, 'console.controlPlane.action')}</th>
            <th scope="col">{t(lang, 'console.status')}</th>
            <th scope="col">{t(lang, 'console.controlPlane.approvals')}</th>
            <th scope="col">{t(lang, 'console.controlPlane.requestedBy')}</th>
            <th scope="col">{t(lang, 'console.when')}</th>
          </tr>
        </thead>
        <tbody>
          {page.items.map((item) => (
            <tr>
              <th scope="row">
                <a href={requestHref(item.id, lang)}>{item.id}</a>
              </th>
              <td>
                <code>{item.action}</code> → {item.target}
              </td>
              <td class={`status-${item.status}`}>{t(lang, `console.request.${item.status}`)}</td>
              <td class="num">
                {item.approvalCount} / {item.approvalsRequired}
              </td>
              <td>{item.requestedBy}</td>
              <td>
                <When lang={lang} at={item.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <NextPage lang={lang} path="/console/control-plane" query={{ status: props.status ?? undefined }} cursor={page.nextCursor} />
    </ConsoleLayout>
  );
}

/**
 * One request as an approver sees it: the action, the target, the payload exactly as it will be executed and
 * its SHA-256 (what the approval approves), the approvals so far (who and when), and the forms this person may
 * use. The requester sees the approve button too: the service refuses their own approval, and the page says so.
 */
export function ControlPlaneRequestPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  item: ControlPlaneRequest;
  approver: boolean;
  me: string;
}) {
  const { lang, item } = props;
  const back = requestHref(item.id, lang);
  const mine = item.requestedBy === props.me;
  return (
    <ConsoleLayout lang={lang} title={item.id} areas={props.areas} area="control-plane" path={`/console/control-plane/${item.id}`} proofs>
      <p>
        <a href={href('/console/control-plane', lang)}>{t(lang, 'console.controlPlane.back')}</a>
      </p>
      <h1>
        {t(lang, 'console.controlPlane.request')} {item.id}
      </h1>
      <dl class="facts">
        <dt>{t(lang, 'console.controlPlane.action')}</dt>
        <dd>
          <code>{item.action}</code>
        </dd>
        <dt>{t(lang, 'console.controlPlane.target')}</dt>
        <dd>{item.target}</dd>
        <dt>{t(lang, 'console.status')}</dt>
        <dd class={`status-${item.status}`}>{t(lang, `console.request.${item.status}`)}</dd>
        <dt>{t(lang, 'console.reason')}</dt>
        <dd>{item.reason}</dd>
        <dt>{t(lang, 'console.controlPlane.requestedBy')}</dt>
        <dd>
          {item.requestedBy}
          {mine ? ` (${t(lang, 'console.controlPlane.you')})` : ''} · <When lang={lang} at={item.createdAt} />
        </dd>
        <dt>{t(lang, 'console.controlPlane.payloadHash')}</dt>
        <dd>
          <code class="hash">{item.payloadHash}</code>
        </dd>
      </dl>
      <h2>{t(lang, 'console.controlPlane.payload')}</h2>
      <JsonBlock value={item.payload} label={t(lang, 'console.controlPlane.payload')} />
      <h2>
        {t(lang, 'console.controlPlane.approvals')} ({item.approvalCount} / {item.approvalsRequired})
      </h2>
      {item.approvals?.length ? (
        <ul class="list">
          {(item.approvals ?? []).map((approval) => (
            <li>
              {approval.approver} · <When lang={lang} at={approval.approvedAt} />
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
          {t(lang, 'console.controlPlane.cancelledAt', { by: item.cancelledBy ?? '', reason: item.cancelReason ?? '—' })}{' '}
          <When lang={lang} at={item.cancelledAt} />
        </p>
      ) : null}
      {item.status === 'PENDING' && props.approver ? (
        <section aria-labelledby="approve">
          <h2 id="approve">{t(lang, 'console.controlPlane.approve')}</h2>
          <p>{t(lang, 'console.controlPlane.approveText', { hash: item.payloadHash })}</p>
          {mine ? <p class="tag-warn">{t(lang, 'console.controlPlane.ownRequest')}</p> : null}
          <ActionForm
            lang={lang}
            action={`/console/control-plane/${encodeURIComponent(item.id)}/approve`}
            back={back}
            submit={t(lang, 'console.controlPlane.approve')}
            proof={{ action: `control_plane_approve:${item.id}`, label: t(lang, 'console.prove') }}
          />
        </section>
      ) : null}
      {item.status === 'PENDING' || item.status === 'EXECUTED' ? (
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
