import { isLabelKey, t, type Lang } from '../../words/index.js';
import type { EvaluationResponse, Signal, StateResponse } from '../../../governance/parameters/schemas.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { ActionForm, Field, JsonBlock, TableScroll, When } from './parts.js';
import { ConsoleLayout } from './layout.js';

type Evaluation = Pick<EvaluationResponse, 'evaluatedAt' | 'tripped' | 'mutatingApplied' | 'note' | 'recommendedControlPlaneActions'>;

export interface GovernanceProps {
  lang: Lang;
  areas: readonly ConsoleArea[];
  state: StateResponse;
  /** The health signals measured now. */
  signals: readonly Signal[];
  evaluation: Evaluation | null;
  /** A refused proposal as it was typed (its form shows it again). */
  draft: { title: string; rationale: string; changes: string } | null;
}

/**
 * Governance: every parameter with its value, default and range; the proposals still open with the transitions
 * legal in their state (a DRAFT is ratified or rejected with a World ID proof; a RATIFIED one is activated,
 * through the control plane when it is on); the health signals with their thresholds; emergency measures.
 */
export function GovernancePage(props: GovernanceProps) {
  const { lang, state } = props;
  const back = href('/console/governance', lang);
  const explicit = state.controlPlane.explicitEnabled;
  return (
    <ConsoleLayout
      lang={lang}
      title={t(lang, 'console.area.governance')}
      areas={props.areas}
      area="governance"
      path="/console/governance"
      proofs
    >
      <h1>{t(lang, 'console.area.governance')}</h1>
      <p class="meta">
        {explicit
          ? t(lang, 'console.governance.explicitOn', { count: state.controlPlane.approvalMin })
          : t(lang, 'console.governance.explicitOff')}
      </p>

      <section aria-labelledby="emergency">
        <h2 id="emergency">{t(lang, 'console.governance.emergency')}</h2>
        {state.emergency.active ? (
          <p class="tag-bad">
            {t(lang, 'console.governance.emergencyActive', { id: state.emergency.id ?? '' })}{' '}
            <When lang={lang} at={state.emergency.activatedAt} />
          </p>
        ) : (
          <p class="tag-ok">{t(lang, 'console.governance.emergencyNone')}</p>
        )}
        {state.emergency.active ? <JsonBlock value={state.emergency.overlay} label={t(lang, 'console.governance.overlay')} /> : null}
        <TableScroll label={t(lang, 'console.governance.signals')}>
          <table>
            <caption>{t(lang, 'console.governance.signals')}</caption>
            <thead>
              <tr>
                <th scope="col">{t(lang, 'console.governance.signal')}</th>
                <th scope="col">{t(lang, 'console.governance.lastHour')}</th>
                <th scope="col">{t(lang, 'console.governance.threshold')}</th>
                <th scope="col">{t(lang, 'console.status')}</th>
              </tr>
            </thead>
            <tbody>
              {props.signals.map((signal) => (
                <tr>
                  <th scope="row">{t(lang, `console.signal.${signal.name}`)}</th>
                  <td class="num">{signal.collusion ? signal.collusion.flaggedMembers : (signal.lastHour ?? '—')}</td>
                  <td class="num">{signal.collusion ? signal.collusion.minimumMembers : (signal.threshold?.required ?? '—')}</td>
                  <td class={signal.tripped ? 'tag-bad' : 'tag-ok'}>
                    {!signal.available
                      ? t(lang, 'console.governance.unavailable')
                      : signal.tripped
                        ? t(lang, 'console.governance.tripped')
                        : t(lang, 'console.governance.quiet')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        {props.evaluation ? <EvaluationResult lang={lang} evaluation={props.evaluation} /> : null}
        <ActionForm lang={lang} action="/console/governance/evaluate" back={back} submit={t(lang, 'console.governance.evaluate')}>
          {explicit ? (
            <Field id="evaluate-request" label={t(lang, 'console.governance.withRequest')}>
              <input id="evaluate-request" name="controlPlaneRequestId" maxLength={64} pattern="[A-Za-z0-9_\-]+" />
            </Field>
          ) : null}
        </ActionForm>
        {state.emergency.active ? (
          <ActionForm lang={lang} action="/console/governance/emergency/clear" back={back} submit={t(lang, 'console.governance.clear')}>
            <Field id="clear-reason" label={t(lang, 'console.reason')}>
              <input id="clear-reason" name="reason" maxLength={2000} />
            </Field>
            {explicit ? (
              <Field id="clear-request" label={t(lang, 'console.governance.withRequest')}>
                <input id="clear-request" name="controlPlaneRequestId" required maxLength={64} pattern="[A-Za-z0-9_\-]+" />
              </Field>
            ) : null}
          </ActionForm>
        ) : null}
      </section>

      <section aria-labelledby="proposals">
        <h2 id="proposals">{t(lang, 'console.governance.proposals')}</h2>
        {state.openProposals.length === 0 ? <p>{t(lang, 'console.governance.noProposals')}</p> : null}
        {state.openProposals.map((proposal) => (
          <article class="proposal" aria-labelledby={`p-${proposal.id}`}>
            <h3 id={`p-${proposal.id}`}>
              {proposal.title} <span class={`status-${proposal.status}`}>{t(lang, `console.proposal.${proposal.status}`)}</span>
            </h3>
            <p>{proposal.rationale}</p>
            <JsonBlock value={proposal.changes} label={t(lang, 'console.governance.changes')} />
            <p class="meta">
              {proposal.id} · {proposal.createdBy} · <When lang={lang} at={proposal.createdAt} />
            </p>
            {proposal.status === 'DRAFT' ? (
              <>
                <ActionForm
                  lang={lang}
                  action={`/console/governance/proposals/${encodeURIComponent(proposal.id)}/ratify`}
                  back={back}
                  submit={t(lang, 'console.governance.ratify')}
                  proof={{ action: `governance_ratify:${proposal.id}`, label: t(lang, 'console.prove') }}
                >
                  <input type="hidden" name="decision" value="RATIFY" />
                </ActionForm>
                <ActionForm
                  lang={lang}
                  action={`/console/governance/proposals/${encodeURIComponent(proposal.id)}/ratify`}
                  back={back}
                  submit={t(lang, 'console.governance.reject')}
                  proof={{ action: `governance_ratify:${proposal.id}`, label: t(lang, 'console.prove') }}
                  danger
                >
                  <input type="hidden" name="decision" value="REJECT" />
                </ActionForm>
              </>
            ) : null}
            {proposal.status === 'RATIFIED' ? (
              <>
                {explicit ? (
                  <ActionForm
                    lang={lang}
                    action="/console/control-plane/requests"
                    back={href('/console/control-plane', lang)}
                    submit={t(lang, 'console.governance.fileActivation')}
                  >
                    <input type="hidden" name="action" value="governance.activate" />
                    <input type="hidden" name="target" value={proposal.id} />
                    <input type="hidden" name="payload" value={JSON.stringify({ changes: proposal.changes })} />
                    <input type="hidden" name="reason" value={proposal.title} />
                  </ActionForm>
                ) : null}
                <ActionForm
                  lang={lang}
                  action={`/console/governance/proposals/${encodeURIComponent(proposal.id)}/activate`}
                  back={back}
                  submit={t(lang, 'console.governance.activate')}
                >
                  {explicit ? (
                    <Field id={`activate-${proposal.id}`} label={t(lang, 'console.governance.withRequest')}>
                      <input
                        id={`activate-${proposal.id}`}
                        name="controlPlaneRequestId"
                        required
                        maxLength={64}
                        pattern="[A-Za-z0-9_\-]+"
                      />
                    </Field>
                  ) : null}
                </ActionForm>
              </>
            ) : null}
          </article>
        ))}
        <h3>{t(lang, 'console.governance.newProposal')}</h3>
        <ActionForm
          lang={lang}
          action="/console/governance/proposals"
          back={back}
          submit={t(lang, 'console.governance.propose')}
          class="console-form stacked"
        >
          <Field id="proposal-title" label={t(lang, 'console.governance.proposalTitle')}>
            <input id="proposal-title" name="title" required maxLength={200} value={props.draft?.title ?? ''} />
          </Field>
          <Field id="proposal-rationale" label={t(lang, 'console.governance.rationale')}>
            <textarea id="proposal-rationale" name="rationale" required maxLength={5000}>
              {props.draft?.rationale ?? ''}
            </textarea>
          </Field>
          <Field id="proposal-changes" label={t(lang, 'console.governance.changes')} hint={t(lang, 'console.governance.changesHint')}>
            <textarea id="proposal-changes" name="changes" required maxLength={5000} aria-describedby="proposal-changes-hint">
              {props.draft?.changes ?? ''}
            </textarea>
          </Field>
        </ActionForm>
      </section>

      <section aria-labelledby="parameters">
        <h2 id="parameters">{t(lang, 'console.governance.parameters')}</h2>
        <TableScroll label={t(lang, 'console.governance.parameter')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t(lang, 'console.governance.parameter')}</th>
                <th scope="col">{t(lang, 'console.governance.value')}</th>
                <th scope="col">{t(lang, 'console.governance.default')}</th>
                <th scope="col">{t(lang, 'console.governance.range')}</th>
                <th scope="col">{t(lang, 'console.governance.lastChange')}</th>
              </tr>
            </thead>
            <tbody>
              {state.parameters.map((p) => (
                <tr>
                  <th scope="row">
                    <code>{p.name}</code>
                    <br />
                    <small>{parameterDescription(lang, p.name, p.description)}</small>
                  </th>
                  <td class="num">
                    {p.value}
                    {p.emergencyOverride ? (
                      <span class="tag-warn"> ({t(lang, 'console.governance.overridden', { value: p.baseValue })})</span>
                    ) : null}
                  </td>
                  <td class="num">{p.default}</td>
                  <td class="num">
                    {p.range.min} – {p.range.max}
                    {p.range.integer ? ` (${t(lang, 'console.governance.integer')})` : ''}
                  </td>
                  <td>{p.updatedByProposalId ? <When lang={lang} at={p.updatedAt} /> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>
    </ConsoleLayout>
  );
}

/**
 * A parameter's description in the page's language (the catalogues' `console.parameter.<name>`); the API's
 * English one for a parameter the catalogues do not know yet.
 */
export function parameterDescription(lang: Lang, name: string, english: string): string {
  const key = `console.parameter.${name}`;
  return isLabelKey(lang, key) ? t(lang, key) : english;
}

/** What the last evaluation found and, under the control plane, the requests to file (one button each). */
function EvaluationResult(props: { lang: Lang; evaluation: Evaluation }) {
  const { lang, evaluation } = props;
  return (
    <div class="evaluation" role="status">
      <p>
        {/* the labels after the time carry their own punctuation: " :" in French, "，" in Chinese */}
        {t(lang, 'console.governance.evaluatedAt')} <When lang={lang} at={evaluation.evaluatedAt} />
        {evaluation.tripped.length
          ? t(lang, 'console.governance.trippedList', {
              signals: evaluation.tripped.map((s) => t(lang, `console.signal.${s}` as 'console.signal.flagSurge')).join(', '),
            })
          : t(lang, 'console.governance.nothingTripped')}
      </p>
      {evaluation.recommendedControlPlaneActions.map((recommended) => (
        <ActionForm
          lang={lang}
          action="/console/control-plane/requests"
          back={href('/console/control-plane', lang)}
          submit={t(lang, 'console.controlPlane.fileRecommended', { action: recommended.action })}
        >
          <JsonBlock value={recommended.payload} label={t(lang, 'console.controlPlane.payload')} />
          <input type="hidden" name="action" value={recommended.action} />
          <input type="hidden" name="target" value={recommended.target} />
          <input type="hidden" name="payload" value={JSON.stringify(recommended.payload)} />
          <Field id={`reason-${recommended.action}`} label={t(lang, 'console.reason')}>
            <input id={`reason-${recommended.action}`} name="reason" required maxLength={2000} value={recommended.reason} />
          </Field>
        </ActionForm>
      ))}
    </div>
  );
}
