import type { Static } from '@sinclair/typebox';
import { t, type Lang } from '../../words/index.js';
import type { SearchResponse } from '../../../newsroom/search/schemas.js';
import { nextCaseStatus, type CaseMove } from '../../../rewards/review/case-states.js';
import type { ReviewCase, ReviewQueue } from '../../../rewards/review/schemas.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { findingHref } from './integrity.js';
import { ActionForm, Field, When } from './parts.js';
import { Money, RewardsFrame } from './rewards.js';

type Queue = Static<typeof ReviewQueue>;
type Item = Queue['items'][number];
type Case = Static<typeof ReviewCase>;
type Decided = NonNullable<SearchResponse['reviewCases']>['items'][number];

const can = (item: { status: Case['status'] }, move: CaseMove) => nextCaseStatus(item.status, move) !== null;
const caseAction = (id: string, move: string) => `/console/rewards/review/cases/${encodeURIComponent(id)}/${move}`;

/** The collusion finding that held a payout for review: its analysis, its cluster and the cluster's number. */
export interface HoldFinding {
  analysisId: string;
  clusterId: string;
  number: number;
}

/** Where a queue item came from, when a collusion finding held it: a link to the finding (plain words for someone who cannot open it). */
function HeldBy(props: { lang: Lang; finding: HoldFinding; linked: boolean }) {
  const { lang, finding } = props;
  const words = t(lang, 'console.rewards.heldByFinding', { n: finding.number });
  return props.linked ? <a href={findingHref(finding.analysisId, finding.clusterId, lang)}>{words}</a> : <>{words}</>;
}

/** A queue item's target, its reason and who (or the finding that held it), and what it holds. */
function ItemRow(props: { lang: Lang; item: Item; finding: HoldFinding | undefined; linked: boolean }) {
  const { lang, item } = props;
  return (
    <tr>
      <th scope="row">
        {t(lang, `console.queueItem.${item.kind}`)}
        <br />
        <code>{item.targetId}</code>
      </th>
      <td>{t(lang, `console.caseQueue.${item.queue as 'PENDING'}`)}</td>
      <td>
        <When lang={lang} at={item.since} />
      </td>
      <td>
        {item.reason ?? '—'}
        {props.finding ? (
          <>
            <br />
            <HeldBy lang={lang} finding={props.finding} linked={props.linked} />
          </>
        ) : null}
        {item.by ? (
          <>
            <br />
            <small>{t(lang, 'console.rewards.byWhom', { by: item.by })}</small>
          </>
        ) : null}
      </td>
      <td class="num">
        {item.held ? (
          <>
            {t(lang, 'console.rewards.heldCount', { count: item.held.count })}
            <br />
            <Money lang={lang} amount={item.held.amount} />
          </>
        ) : item.payout ? (
          <Money lang={lang} amount={item.payout.amount} />
        ) : (
          '—'
        )}
      </td>
    </tr>
  );
}

function QueueTable(props: { lang: Lang; items: Item[]; caption: string; findings: ReadonlyMap<string, HoldFinding>; linked: boolean }) {
  const { lang } = props;
  if (props.items.length === 0) return <p>{t(lang, 'console.empty')}</p>;
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t(lang, 'console.rewards.target')}</th>
          <th scope="col">{t(lang, 'console.rewards.queue')}</th>
          <th scope="col">{t(lang, 'console.rewards.since')}</th>
          <th scope="col">{t(lang, 'console.reason')}</th>
          <th scope="col">{t(lang, 'console.rewards.held')}</th>
        </tr>
      </thead>
      <tbody>
        {props.items.map((item) => (
          <ItemRow
            lang={lang}
            item={item}
            finding={item.kind === 'HELD_PAYOUT' ? props.findings.get(item.targetId) : undefined}
            linked={props.linked}
          />
        ))}
      </tbody>
    </table>
  );
}

/** One open case with the moves its state allows, and only those (the API refuses the others). */
function CaseCard(props: { lang: Lang; item: Case; me: string; back: string }) {
  const { lang, item, back } = props;
  const id = item.id;
  return (
    <article class="case" aria-labelledby={`case-${id}`}>
      <h3 id={`case-${id}`}>
        {t(lang, 'console.rewards.caseTitle', { id })} <span class={`status-${item.status}`}>{t(lang, `console.case.${item.status}`)}</span>
      </h3>
      <p>
        {t(lang, 'console.rewards.caseTarget', { type: t(lang, `console.targetType.${item.targetType}`), id: item.targetId })}
        {item.queue ? ` · ${t(lang, `console.caseQueue.${item.queue as 'PENDING'}`)}` : ''}
      </p>
      <p>{item.reason}</p>
      <p class="meta">
        {t(lang, 'console.rewards.caseMeta', { by: item.openedBy, assignee: item.assignedToActorId ?? '—' })}{' '}
        {t(lang, 'console.rewards.due')} <When lang={lang} at={item.dueAt} />
      </p>
      {can(item, 'assign') ? (
        <ActionForm lang={lang} action={caseAction(id, 'assign')} back={back} submit={t(lang, 'console.rewards.assign')}>
          <Field id={`assign-${id}`} label={t(lang, 'console.rewards.assignee')}>
            <input id={`assign-${id}`} name="assigneeActorId" required maxLength={200} value={item.assignedToActorId ?? props.me} />
          </Field>
        </ActionForm>
      ) : null}
      {can(item, 'escalate') ? (
        <ActionForm lang={lang} action={caseAction(id, 'escalate')} back={back} submit={t(lang, 'console.rewards.escalate')}>
          <Field id={`escalate-${id}`} label={t(lang, 'console.rewards.noteOptional')}>
            <input id={`escalate-${id}`} name="note" maxLength={2000} />
          </Field>
        </ActionForm>
      ) : null}
      {(['resolve', 'dismiss'] as const)
        .filter((move) => can(item, move))
        .map((move) => (
          <ActionForm
            lang={lang}
            action={caseAction(id, 'resolve')}
            back={back}
            submit={t(lang, move === 'resolve' ? 'console.rewards.resolve' : 'console.rewards.dismiss')}
            danger={move === 'dismiss'}
          >
            <input type="hidden" name="outcome" value={move === 'resolve' ? 'RESOLVED' : 'DISMISSED'} />
            <Field id={`${move}-${id}`} label={t(lang, 'console.rewards.resolution')}>
              <input id={`${move}-${id}`} name="resolution" required maxLength={2000} />
            </Field>
            <p class="field">
              <input type="checkbox" id={`${move}-release-${id}`} name="releasePayouts" value="1" />{' '}
              <label for={`${move}-release-${id}`}>{t(lang, 'console.rewards.releasePayouts')}</label>
            </p>
          </ActionForm>
        ))}
    </article>
  );
}

/** The review queue, the open cases with their legal moves, the decided cases (to appeal) and a new case. */
export function RewardsReviewPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  queue: Queue;
  /** The collusion finding behind each payout the cartel hold keeps for review, by payout id. */
  holdFindings: ReadonlyMap<string, HoldFinding>;
  decided: Decided[];
  me: string;
}) {
  const { lang, queue } = props;
  const back = href('/console/rewards/review', lang);
  const cases = queue.items.filter((i) => i.kind === 'CASE' && i.case).map((i) => ({ ...i.case!, queue: i.queue }));
  return (
    <RewardsFrame
      lang={lang}
      areas={props.areas}
      section="review"
      title={t(lang, 'console.rewards.reviewTitle')}
      path="/console/rewards/review"
    >
      <p class="meta">
        {t(lang, 'console.rewards.queueText')} <When lang={lang} at={queue.generatedAt} />
      </p>
      <section aria-labelledby="queue">
        <h2 id="queue">{t(lang, 'console.rewards.queueTitle')}</h2>
        <QueueTable
          lang={lang}
          items={queue.items.filter((i) => i.kind !== 'CASE')}
          caption={t(lang, 'console.rewards.queueTitle')}
          findings={props.holdFindings}
          linked={props.areas.includes('integrity')}
        />
      </section>
      <section aria-labelledby="cases">
        <h2 id="cases">{t(lang, 'console.rewards.openCases')}</h2>
        {cases.length === 0 ? <p>{t(lang, 'console.rewards.noCases')}</p> : null}
        {cases.map((item) => (
          <CaseCard lang={lang} item={item} me={props.me} back={back} />
        ))}
      </section>
      <section aria-labelledby="decided">
        <h2 id="decided">{t(lang, 'console.rewards.decidedCases')}</h2>
        <p class="meta">{t(lang, 'console.rewards.decidedText')}</p>
        {props.decided.length === 0 ? <p>{t(lang, 'console.empty')}</p> : null}
        {props.decided.map((item) => (
          <article class="case" aria-labelledby={`case-${item.id}`}>
            <h3 id={`case-${item.id}`}>
              {t(lang, 'console.rewards.caseTitle', { id: item.id })}{' '}
              <span class={`status-${item.status}`}>{t(lang, `console.case.${item.status}`)}</span>
            </h3>
            <p class="meta">
              {t(lang, `console.targetType.${item.targetType}`)} · <When lang={lang} at={item.updatedAt} />
            </p>
            {can(item, 'appeal') ? (
              <ActionForm lang={lang} action={caseAction(item.id, 'appeal')} back={back} submit={t(lang, 'console.rewards.appeal')}>
                <Field id={`appeal-${item.id}`} label={t(lang, 'console.rewards.appealNote')}>
                  <input id={`appeal-${item.id}`} name="note" required maxLength={2000} />
                </Field>
              </ActionForm>
            ) : null}
          </article>
        ))}
      </section>
      <section aria-labelledby="open-case">
        <h2 id="open-case">{t(lang, 'console.rewards.openCase')}</h2>
        <ActionForm
          lang={lang}
          action="/console/rewards/review/cases"
          back={back}
          submit={t(lang, 'console.rewards.openCaseSubmit')}
          class="console-form stacked"
        >
          <Field id="case-type" label={t(lang, 'console.rewards.targetType')}>
            <select id="case-type" name="targetType">
              {(['STORY', 'RECIPIENT', 'PAYOUT', 'BATCH'] as const).map((type) => (
                <option value={type}>{t(lang, `console.targetType.${type}`)}</option>
              ))}
            </select>
          </Field>
          <Field id="case-target" label={t(lang, 'console.rewards.targetId')}>
            <input id="case-target" name="targetId" required maxLength={200} pattern="[A-Za-z0-9_.:\-]+" />
          </Field>
          <Field id="case-reason" label={t(lang, 'console.reason')}>
            <textarea id="case-reason" name="reason" required maxLength={2000} />
          </Field>
          <Field id="case-assignee" label={t(lang, 'console.rewards.assigneeOptional')}>
            <input id="case-assignee" name="assignedToActorId" maxLength={200} />
          </Field>
        </ActionForm>
      </section>
    </RewardsFrame>
  );
}
