import type { Static } from '@sinclair/typebox';
import { t, type Lang } from '../../words/index.js';
import { QUARANTINE_STATUSES, type QuarantineItem, type QuarantinePage } from '../../../newsroom/moderation/schemas.js';
import { href } from '../../site/links.js';
import { enc, ModerationFrame, type Frame } from './moderation-frame.js';
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
                rule: rule.id,
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

function QuarantineEntry(props: { lang: Lang; item: QuarantineItem; back: string }) {
  const { lang, item } = props;
  const heading = `item-${item.id}`;
  const open = item.status === 'OPEN' || item.status === 'KEPT';
  return (
    <article class="card" aria-labelledby={heading}>
      <h2 id={heading}>{item.story.title}</h2>
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
            return (
              <ActionForm
                lang={lang}
                action={`/console/moderation/quarantine/story/${enc(item.scopeId)}/resolve`}
                back={props.back}
                submit={t(lang, `console.moderation.decide.${decision}`)}
                danger={decision === 'BLOCK'}
              >
                <input type="hidden" name="decision" value={decision} />
                <Field id={field} label={t(lang, `console.moderation.reasonFor.${decision}`)}>
                  <input id={field} name="reason" required maxLength={2000} />
                </Field>
              </ActionForm>
            );
          })
        : null}
    </article>
  );
}

export function QuarantineQueuePage(props: Frame & { page: QuarantinePage; status: (typeof QUARANTINE_STATUSES)[number] }) {
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
      {page.items.map((item) => (
        <QuarantineEntry lang={lang} item={item} back={back} />
      ))}
      <NextPage lang={lang} path="/console/moderation" query={{ status }} cursor={page.nextCursor} />
    </ModerationFrame>
  );
}
