import type { Static } from '@sinclair/typebox';
import { t, type Lang } from '../../words/index.js';
import type { CandidateField, QuarantineCandidate } from '../../../newsroom/moderation/quarantine-service.js';
import { QUARANTINE_STATUSES, type QuarantineItem, type QuarantinePage } from '../../../newsroom/moderation/schemas.js';
import { href } from '../../site/links.js';
import { CandidateText, itemPath, ruleWords } from './moderation-candidate.js';
import { ModerationFrame, type Frame } from './moderation-frame.js';
import { StorySearch } from './moderation-story.js';
import { Chips } from './parts.js';
import { ActionForm, Field, JsonBlock, NextPage, When } from './parts.js';

type QuarantinePage = Static<typeof QuarantinePage>;

interface TraceRule {
  id: string;
  category?: string;
  action?: string;
  matched?: boolean;
  fields?: string[];
}

const matchedRules = (rules: unknown[]): TraceRule[] =>
  rules.filter(
    (r): r is TraceRule =>
      r !== null && typeof r === 'object' && typeof (r as TraceRule).id === 'string' && (r as TraceRule).matched === true,
  );

/** The safety trace, readable: its decision, the categories it named, the rules that matched and where. */
function Trace(props: { lang: Lang; item: QuarantineItem }) {
  const { lang, item } = props;
  const rules = matchedRules(item.trace.rules);
  const id = `trace-${item.id}`;
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{t(lang, 'console.moderation.trace')}</h3>
      <p>
        {t(lang, 'console.moderation.traceText', {
          decision: t(lang, `console.moderation.scan.${item.trace.decision}`),
          trace: item.trace.id,
        })}{' '}
        <When lang={lang} at={item.trace.scannedAt} />
      </p>
      {item.trace.packetHash !== item.story.packetHash ? <p class="tag-warn">{t(lang, 'console.moderation.traceOlder')}</p> : null}
      <table>
        <caption>{t(lang, 'console.moderation.categories')}</caption>
        <thead>
          <tr>
            <th scope="col">{t(lang, 'console.moderation.category')}</th>
            <th scope="col">{t(lang, 'console.moderation.action')}</th>
            <th scope="col">{t(lang, 'console.moderation.hardBlock')}</th>
          </tr>
        </thead>
        <tbody>
          {item.trace.categories.map((c) => (
            <tr>
              <th scope="row">
                <code>{c.category}</code>
              </th>
              <td>{c.action}</td>
              <td class={c.hardBlock ? 'tag-bad' : undefined}>{t(lang, c.hardBlock ? 'console.yes' : 'console.no')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rules.length ? (
        <ul class="list">
          {rules.map((rule) => (
            <li>
              {t(lang, 'console.moderation.ruleMatched', {
                rule: ruleWords(lang, rule.id),
                category: rule.category ?? '—',
                fields: (rule.fields ?? []).join(', ') || '—',
              })}
            </li>
          ))}
        </ul>
      ) : null}
      <details>
        <summary>{t(lang, 'console.moderation.rawTrace')}</summary>
        <JsonBlock value={item.trace} label={t(lang, 'console.moderation.rawTrace')} />
      </details>
    </section>
  );
}

const DECISIONS = ['RELEASE', 'KEEP', 'BLOCK'] as const;

export function QuarantineEntry(props: { lang: Lang; item: QuarantineItem; fields: CandidateField[] | null; back: string }) {
  const { lang, item } = props;
  const heading = `item-${item.id}`;
  const open = item.status === 'OPEN' || item.status === 'KEPT';
  return (
    <article class="card" aria-labelledby={heading}>
      <h2 id={heading}>
        <a href={href(itemPath(item.scopeId), lang)}>{item.story.title}</a>
      </h2>
      <dl class="facts">
        <dt>{t(lang, 'console.moderation.story')}</dt>
        <dd>
          <code>{item.story.id}</code> · {item.story.publicationStage} · {item.story.moderationStatus}
        </dd>
        <dt>{t(lang, 'console.status')}</dt>
        <dd class={`status-${item.status}`}>{t(lang, `console.moderation.q.${item.status}`)}</dd>
        <dt>{t(lang, 'console.moderation.held')}</dt>
        <dd>
          <When lang={lang} at={item.createdAt} />
        </dd>
      </dl>
      {item.hardBlock ? <p class="tag-bad">{t(lang, 'console.moderation.hardBlockText')}</p> : null}
      <CandidateText lang={lang} id={item.id} fields={props.fields} />
      <Trace lang={lang} item={item} />
      {item.decisions.length ? (
        <>
          <h3>{t(lang, 'console.moderation.decisions')}</h3>
          <ul class="list">
            {item.decisions.map((d) => (
              <li>
                {t(lang, 'console.moderation.decisionLine', {
                  decision: t(lang, `console.moderation.decide.${d.decision}`),
                  by: d.decidedBy,
                  reason: d.reason,
                })}{' '}
                <When lang={lang} at={d.decidedAt} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {open
        ? DECISIONS.filter((d) => !(d === 'RELEASE' && item.hardBlock)).map((decision) => {
            const field = `reason-${item.id}-${decision}`;
            const reason = (
              <Field id={field} label={t(lang, `console.moderation.reasonFor.${decision}`)}>
                <input id={field} name="reason" required maxLength={2000} />
              </Field>
            );
            // blocking is for good: it is asked once more on a page of its own, which says so
            return decision === 'BLOCK' ? (
              <form method="get" action={`${itemPath(item.scopeId)}/block`} class="console-form">
                <input type="hidden" name="lang" value={lang} />
                {reason}
                <button type="submit" class="danger">
                  {t(lang, 'console.moderation.blockNext')}
                </button>
              </form>
            ) : (
              <ActionForm
                lang={lang}
                action={`${itemPath(item.scopeId)}/resolve`}
                back={props.back}
                submit={t(lang, `console.moderation.decide.${decision}`)}
              >
                <input type="hidden" name="decision" value={decision} />
                {reason}
              </ActionForm>
            );
          })
        : null}
    </article>
  );
}

export function QuarantineQueuePage(
  props: Frame & { page: QuarantinePage; fields: (CandidateField[] | null)[]; status: (typeof QUARANTINE_STATUSES)[number] },
) {
  const { lang, page, status } = props;
  const back = href('/console/moderation', lang, status === 'OPEN' ? {} : { status });
  return (
    <ModerationFrame
      {...props}
      title={t(lang, 'console.moderation.section.quarantine')}
      here="quarantine"
      path="/console/moderation"
      query={{ status }}
    >
      <p>{t(lang, 'console.moderation.quarantineText')}</p>
      <section aria-labelledby="find-story-heading" class="find-story">
        <h2 id="find-story-heading">{t(lang, 'console.moderation.findStory')}</h2>
        <StorySearch lang={lang} />
      </section>
      <Chips
        lang={lang}
        label={t(lang, 'console.status')}
        path="/console/moderation"
        param="status"
        values={QUARANTINE_STATUSES}
        current={status}
        word={(s) => t(lang, `console.moderation.q.${s}`)}
      />
      {page.items.length === 0 ? <p>{t(lang, 'console.empty')}</p> : null}
      {page.items.map((item, i) => (
        <QuarantineEntry lang={lang} item={item} fields={props.fields[i] ?? null} back={back} />
      ))}
      <NextPage lang={lang} path="/console/moderation" query={{ status }} cursor={page.nextCursor} />
    </ModerationFrame>
  );
}

/** One quarantine item on a page of its own: the queue's card, addressable. */
export function QuarantineItemPage(props: Frame & QuarantineCandidate) {
  const { lang, item } = props;
  return (
    <ModerationFrame
      {...props}
      title={t(lang, 'console.moderation.itemTitle', { title: item.story.title })}
      here="quarantine"
      path={itemPath(item.scopeId)}
    >
      <p>
        <a href={href('/console/moderation', lang)}>{t(lang, 'console.moderation.backToQueue')}</a>
      </p>
      <QuarantineEntry lang={lang} item={item} fields={props.fields} back={href(itemPath(item.scopeId), lang)} />
    </ModerationFrame>
  );
}

/** "Block for good", asked once more on a page of its own: what it does, and that it cannot be undone. */
export function BlockConfirmPage(props: Frame & { item: QuarantineItem; reason: string }) {
  const { lang, item } = props;
  const path = itemPath(item.scopeId);
  return (
    <ModerationFrame
      {...props}
      title={t(lang, 'console.moderation.blockTitle', { title: item.story.title })}
      here="quarantine"
      path={`${path}/block`}
    >
      <p class="tag-bad">{t(lang, 'console.moderation.blockEffect', { id: item.scopeId })}</p>
      <ActionForm
        lang={lang}
        action={`${path}/resolve`}
        back={href('/console/moderation', lang)}
        submit={t(lang, 'console.moderation.blockSend')}
        danger
      >
        <input type="hidden" name="decision" value="BLOCK" />
        <input type="hidden" name="confirm" value="1" />
        <Field id="block-reason" label={t(lang, 'console.moderation.reasonFor.BLOCK')}>
          <input id="block-reason" name="reason" required maxLength={2000} value={props.reason} />
        </Field>
      </ActionForm>
      <p>
        <a href={href(path, lang)}>{t(lang, 'console.moderation.blockCancel')}</a>
      </p>
    </ModerationFrame>
  );
}
