import type { Static } from '@sinclair/typebox';
import type { ComponentChildren } from 'preact';
import { t, type Lang } from '../../../platform/i18n/index.js';
import { DELIVERY_STATES, type DeliveryLog, type DeliveryState } from '../../../delivery/webhooks/delivery-log.js';
import type { LegalHoldsPage, QuarantinePage } from '../../../newsroom/moderation/schemas.js';
import {
  QUARANTINE_STATUSES,
  SOURCE_RATINGS,
  type LegalHold,
  type QuarantineItem,
  type SourceStatusResponse,
} from '../../../newsroom/moderation/schemas.js';
import type { SourcesResponse, VersionsResponse } from '../../../newsroom/stories/evidence-schemas.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import type { FieldDiff } from '../../site/diff.js';
import { href, storyHref } from '../../site/links.js';
import { PostForm } from '../../site/views/forms.js';
import { DiffRuns } from '../../site/views/versions.js';
import type { ConsoleArea } from '../access.js';
import { ConsoleLayout } from './layout.js';
import { ActionForm, consoleFlashText, Field, JsonBlock, NextPage, When } from './parts.js';

type QuarantinePage = Static<typeof QuarantinePage>;
type LegalHoldsPage = Static<typeof LegalHoldsPage>;
type Packet = VersionsResponse['versions'][number]['packet'];

/** The correction form's fields: the packet's texts, its claims and sources as JSON, and the note. */
export interface CorrectionDraft {
  title: string;
  summary: string;
  body: string;
  claims: string;
  sources: string;
  note: string;
}

interface Frame {
  lang: Lang;
  areas: readonly ConsoleArea[];
}

const enc = encodeURIComponent;
const storyPage = (id: string, lang: Lang, params: Record<string, string> = {}) =>
  href(`/console/moderation/stories/${enc(id)}`, lang, params);
const deliveriesHref = (lang: Lang, params: Record<string, string | undefined> = {}) => href('/console/moderation/webhooks', lang, params);

const SECTIONS = [
  { key: 'quarantine', path: '/console/moderation' },
  { key: 'holds', path: '/console/moderation/legal-holds' },
  { key: 'sources', path: '/console/moderation/sources' },
  { key: 'stories', path: '/console/moderation/stories' },
  { key: 'webhooks', path: '/console/moderation/webhooks' },
] as const;
type Section = (typeof SECTIONS)[number]['key'];

/** The moderation area's own navigation (under the console's). */
function ModerationNav(props: { lang: Lang; here: Section | null }) {
  return (
    <nav aria-label={t(props.lang, 'console.moderation.sections')}>
      <ul class="chips">
        {SECTIONS.map((s) => (
          <li>
            <a href={href(s.path, props.lang)} aria-current={s.key === props.here ? 'page' : undefined}>
              {t(props.lang, `console.moderation.section.${s.key}`)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ModerationFrame(
  props: Frame & {
    title: string;
    here: Section | null;
    path: string;
    query?: Record<string, string | undefined>;
    children: ComponentChildren;
  },
) {
  return (
    <ConsoleLayout lang={props.lang} title={props.title} areas={props.areas} area="moderation" path={props.path} query={props.query}>
      <h1>{props.title}</h1>
      <ModerationNav lang={props.lang} here={props.here} />
      {props.children}
    </ConsoleLayout>
  );
}

/** Filter links: "all" and one per value, the current one marked. */
function Chips<T extends string>(props: {
  lang: Lang;
  label: string;
  path: string;
  param: string;
  values: readonly T[];
  current: T | null;
  word: (value: T) => string;
  all?: boolean;
  query?: Record<string, string | undefined>;
}) {
  return (
    <nav aria-label={props.label}>
      <ul class="chips">
        {props.all ? (
          <li>
            <a href={href(props.path, props.lang, props.query)} aria-current={props.current === null ? 'page' : undefined}>
              {t(props.lang, 'console.all')}
            </a>
          </li>
        ) : null}
        {props.values.map((value) => (
          <li>
            <a
              href={href(props.path, props.lang, { ...props.query, [props.param]: value })}
              aria-current={props.current === value ? 'page' : undefined}
            >
              {props.word(value)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

// ---- the quarantine queue

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

// ---- legal holds

function HoldRelease(props: { lang: Lang; hold: LegalHold; back: string }) {
  const { lang, hold } = props;
  const field = `release-${hold.id}`;
  return (
    <ActionForm
      lang={lang}
      action={`/console/moderation/legal-holds/${enc(hold.id)}/release`}
      back={props.back}
      submit={t(lang, 'console.moderation.releaseHold')}
    >
      <Field id={field} label={t(lang, 'console.reason')}>
        <input id={field} name="reason" required maxLength={2000} />
      </Field>
    </ActionForm>
  );
}

function PlaceHold(props: { lang: Lang; back: string; storyId?: string }) {
  const { lang } = props;
  return (
    <ActionForm lang={lang} action="/console/moderation/legal-holds" back={props.back} submit={t(lang, 'console.moderation.placeHold')}>
      {props.storyId ? (
        <input type="hidden" name="storyId" value={props.storyId} />
      ) : (
        <Field id="hold-story" label={t(lang, 'console.moderation.storyId')}>
          <input id="hold-story" name="storyId" required maxLength={64} pattern="[A-Za-z0-9_\-]+" />
        </Field>
      )}
      <Field id="hold-reason" label={t(lang, 'console.reason')}>
        <input id="hold-reason" name="reason" required maxLength={2000} />
      </Field>
      <Field id="hold-case" label={t(lang, 'console.moderation.caseReference')}>
        <input id="hold-case" name="caseReference" maxLength={200} />
      </Field>
    </ActionForm>
  );
}

export function LegalHoldsListPage(props: Frame & { page: LegalHoldsPage; status: 'ACTIVE' | 'RELEASED' | null; storyId: string | null }) {
  const { lang, page, status, storyId } = props;
  const query = { status: status ?? undefined, storyId: storyId ?? undefined };
  const back = href('/console/moderation/legal-holds', lang, query);
  return (
    <ModerationFrame
      {...props}
      title={t(lang, 'console.moderation.section.holds')}
      here="holds"
      path="/console/moderation/legal-holds"
      query={query}
    >
      <p>{t(lang, 'console.moderation.holdsText')}</p>
      <h2>{t(lang, 'console.moderation.placeHold')}</h2>
      <PlaceHold lang={lang} back={back} />
      <h2>{t(lang, 'console.moderation.holds')}</h2>
      <Chips
        lang={lang}
        label={t(lang, 'console.status')}
        path="/console/moderation/legal-holds"
        param="status"
        values={['ACTIVE', 'RELEASED'] as const}
        current={status}
        word={(s) => t(lang, `console.moderation.hold.${s}`)}
        all
        query={{ storyId: storyId ?? undefined }}
      />
      <form method="get" action="/console/moderation/legal-holds" class="console-form">
        <input type="hidden" name="lang" value={lang} />
        {status ? <input type="hidden" name="status" value={status} /> : null}
        <Field id="holds-story" label={t(lang, 'console.moderation.storyId')}>
          <input id="holds-story" name="storyId" value={storyId ?? ''} maxLength={64} pattern="[A-Za-z0-9_\-]*" />
        </Field>
        <button type="submit">{t(lang, 'console.moderation.filter')}</button>
      </form>
      {page.items.length === 0 ? (
        <p>{t(lang, 'console.empty')}</p>
      ) : (
        <table>
          <caption>{t(lang, 'console.moderation.holds')}</caption>
          <thead>
            <tr>
              <th scope="col">{t(lang, 'console.moderation.hold')}</th>
              <th scope="col">{t(lang, 'console.moderation.story')}</th>
              <th scope="col">{t(lang, 'console.status')}</th>
              <th scope="col">{t(lang, 'console.reason')}</th>
              <th scope="col">{t(lang, 'console.moderation.placed')}</th>
              <th scope="col">{t(lang, 'console.moderation.released')}</th>
              <th scope="col">{t(lang, 'console.moderation.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((hold) => (
              <tr>
                <th scope="row">
                  <code>{hold.id}</code>
                </th>
                <td>
                  <a href={storyPage(hold.storyId, lang)}>{hold.storyId}</a>
                </td>
                <td class={hold.status === 'ACTIVE' ? 'tag-warn' : undefined}>{t(lang, `console.moderation.hold.${hold.status}`)}</td>
                <td>
                  {hold.reason}
                  {hold.caseReference ? ` (${hold.caseReference})` : ''}
                </td>
                <td>
                  {hold.placedBy} · <When lang={lang} at={hold.placedAt} />
                </td>
                <td>
                  {hold.releasedAt ? (
                    <>
                      {hold.releasedBy} · <When lang={lang} at={hold.releasedAt} /> · {hold.releaseReason}
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td>{hold.status === 'ACTIVE' ? <HoldRelease lang={lang} hold={hold} back={back} /> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NextPage lang={lang} path="/console/moderation/legal-holds" query={query} cursor={page.nextCursor} />
    </ModerationFrame>
  );
}

// ---- sources

export function SourcesPage(
  props: Frame & {
    last: SourceStatusResponse | null;
    storyId: string | null;
    sources: SourcesResponse['sources'] | null;
    lookupRefused: string | null;
  },
) {
  const { lang, last } = props;
  const back = href('/console/moderation/sources', lang, { story: props.storyId ?? undefined });
  return (
    <ModerationFrame
      {...props}
      title={t(lang, 'console.moderation.section.sources')}
      here="sources"
      path="/console/moderation/sources"
      query={{ story: props.storyId ?? undefined }}
    >
      <p>{t(lang, 'console.moderation.sourcesText')}</p>
      <h2>{t(lang, 'console.moderation.setSource')}</h2>
      <ActionForm lang={lang} action="/console/moderation/sources/status" back={back} submit={t(lang, 'console.moderation.setSource')}>
        <Field id="source-host" label={t(lang, 'console.moderation.host')} hint={t(lang, 'console.moderation.hostHint')}>
          <input id="source-host" name="host" required maxLength={253} aria-describedby="source-host-hint" />
        </Field>
        <Field id="source-status" label={t(lang, 'console.status')}>
          <select id="source-status" name="status">
            {SOURCE_RATINGS.map((rating) => (
              <option value={rating}>{t(lang, `console.moderation.rating.${rating}`)}</option>
            ))}
          </select>
        </Field>
        <Field id="source-reason" label={t(lang, 'console.reason')}>
          <input id="source-reason" name="reason" required maxLength={2000} />
        </Field>
      </ActionForm>
      {last ? (
        <section aria-labelledby="source-answer">
          <h2 id="source-answer">{t(lang, 'console.moderation.sourceAnswer', { host: last.id })}</h2>
          <dl class="facts">
            <dt>{t(lang, 'console.status')}</dt>
            <dd>
              {t(lang, 'console.moderation.fromTo', {
                from: t(lang, `console.moderation.rating.${last.previousStatus}`),
                to: t(lang, `console.moderation.rating.${last.status}`),
              })}
            </dd>
            <dt>{t(lang, 'console.reason')}</dt>
            <dd>{last.reason}</dd>
            <dt>{t(lang, 'console.moderation.by')}</dt>
            <dd>
              {last.updatedBy} · <When lang={lang} at={last.updatedAt} />
            </dd>
            <dt>{t(lang, 'console.moderation.citations')}</dt>
            <dd>{t(lang, 'console.moderation.citationsText', { count: last.citations })}</dd>
          </dl>
        </section>
      ) : null}
      <h2>{t(lang, 'console.moderation.storySources')}</h2>
      <form method="get" action="/console/moderation/sources" class="console-form">
        <input type="hidden" name="lang" value={lang} />
        <Field id="sources-story" label={t(lang, 'console.moderation.storyId')}>
          <input id="sources-story" name="story" value={props.storyId ?? ''} maxLength={64} pattern="[A-Za-z0-9_\-]*" />
        </Field>
        <button type="submit">{t(lang, 'console.moderation.show')}</button>
      </form>
      {props.lookupRefused ? <p role="alert">{consoleFlashText(lang, { kind: 'refused', message: props.lookupRefused })}</p> : null}
      {props.sources ? (
        props.sources.length === 0 ? (
          <p>{t(lang, 'console.empty')}</p>
        ) : (
          <table>
            <caption>{t(lang, 'console.moderation.storySourcesOf', { id: props.storyId ?? '' })}</caption>
            <thead>
              <tr>
                <th scope="col">{t(lang, 'console.moderation.source')}</th>
                <th scope="col">{t(lang, 'console.moderation.hostStatus')}</th>
                <th scope="col">{t(lang, 'console.moderation.sourceReview')}</th>
                <th scope="col">{t(lang, 'console.moderation.inPacket')}</th>
              </tr>
            </thead>
            <tbody>
              {props.sources.map((s) => (
                <tr>
                  <th scope="row">
                    <code>{s.url}</code>
                    {s.title ? ` · ${s.title}` : ''}
                  </th>
                  <td class={s.sourceStatus === 'BANNED' ? 'tag-bad' : s.sourceStatus === 'WATCH' ? 'tag-warn' : undefined}>
                    {t(lang, `console.moderation.rating.${s.sourceStatus as (typeof SOURCE_RATINGS)[number]}`)}
                  </td>
                  <td>{s.status}</td>
                  <td>{t(lang, s.active ? 'console.yes' : 'console.no')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </ModerationFrame>
  );
}

// ---- a story: correction and retraction

export function StoryFindPage(props: Frame) {
  const { lang } = props;
  return (
    <ModerationFrame {...props} title={t(lang, 'console.moderation.section.stories')} here="stories" path="/console/moderation/stories">
      <p>{t(lang, 'console.moderation.storiesText')}</p>
      <form method="get" action="/console/moderation/stories" class="console-form">
        <input type="hidden" name="lang" value={lang} />
        <Field id="find-story" label={t(lang, 'console.moderation.storyId')}>
          <input id="find-story" name="id" required maxLength={64} pattern="[A-Za-z0-9_\-]+" />
        </Field>
        <button type="submit">{t(lang, 'console.moderation.open')}</button>
      </form>
    </ModerationFrame>
  );
}

/** The correction form's fields (the same on the story page and, hidden, on the preview's send form). */
function DraftFields(props: { lang: Lang; draft: CorrectionDraft }) {
  const { lang, draft } = props;
  return (
    <>
      <Field id="c-title" label={t(lang, 'console.moderation.field.title')}>
        <input id="c-title" name="title" value={draft.title} maxLength={300} />
      </Field>
      <Field id="c-summary" label={t(lang, 'console.moderation.field.summary')}>
        <textarea id="c-summary" name="summary" maxLength={2000} rows={3}>
          {draft.summary}
        </textarea>
      </Field>
      <Field id="c-body" label={t(lang, 'console.moderation.field.body')}>
        <textarea id="c-body" name="body" maxLength={100_000} rows={12}>
          {draft.body}
        </textarea>
      </Field>
      <Field id="c-claims" label={t(lang, 'console.moderation.field.claims')} hint={t(lang, 'console.moderation.claimsHint')}>
        <textarea id="c-claims" name="claims" rows={8} class="code" aria-describedby="c-claims-hint">
          {draft.claims}
        </textarea>
      </Field>
      <Field id="c-sources" label={t(lang, 'console.moderation.field.sources')} hint={t(lang, 'console.moderation.sourcesHint')}>
        <textarea id="c-sources" name="sources" rows={6} class="code" aria-describedby="c-sources-hint">
          {draft.sources}
        </textarea>
      </Field>
      <Field id="c-note" label={t(lang, 'console.moderation.note')} hint={t(lang, 'console.moderation.noteHint')}>
        <textarea id="c-note" name="note" maxLength={2000} rows={3} required aria-describedby="c-note-hint">
          {draft.note}
        </textarea>
      </Field>
    </>
  );
}

function HiddenDraft(props: { draft: CorrectionDraft }) {
  return (
    <>
      {(Object.keys(props.draft) as (keyof CorrectionDraft)[]).map((name) => (
        <input type="hidden" name={name} value={props.draft[name]} />
      ))}
    </>
  );
}

export function StoryModerationPage(
  props: Frame & {
    story: StoryResponse;
    versions: VersionsResponse;
    packet: Packet;
    holds: LegalHold[];
    draft: CorrectionDraft;
    refused: { code: string; details: string[] } | null;
    /** The webhook event of the correction or retraction just made (its deliveries are linked). */
    event: string | null;
  },
) {
  const { lang, story } = props;
  const path = `/console/moderation/stories/${enc(story.id)}`;
  const back = storyPage(story.id, lang);
  const retracted = story.reviewStatus === 'RETRACTED';
  return (
    <ModerationFrame {...props} title={story.title} here="stories" path={path}>
      <p>
        <a href={storyHref(story.id, lang)}>{t(lang, 'console.moderation.publicPage')}</a> ·{' '}
        <a href={href(`/stories/${enc(story.id)}/versions`, lang)}>{t(lang, 'console.moderation.versionsPage')}</a>
      </p>
      {props.event ? (
        <p class="tag-ok">
          <a href={deliveriesHref(lang, { event: props.event })}>{t(lang, 'console.moderation.eventDeliveries', { event: props.event })}</a>
        </p>
      ) : null}
      <dl class="facts">
        <dt>{t(lang, 'console.moderation.story')}</dt>
        <dd>
          <code>{story.id}</code>
        </dd>
        <dt>{t(lang, 'console.moderation.stage')}</dt>
        <dd>
          {story.publicationStage} · {story.reviewStatus}
        </dd>
        <dt>{t(lang, 'console.moderation.version')}</dt>
        <dd>
          {story.version} · <code class="hash">{story.packetHash}</code>
        </dd>
      </dl>
      <h2>{t(lang, 'console.moderation.notices')}</h2>
      {props.versions.versions.some((v) => v.notices.length) ? (
        <ul class="list">
          {props.versions.versions.flatMap((v) =>
            v.notices.map((n) => (
              <li>
                {t(lang, `console.moderation.notice.${n.kind}`, { version: v.version, note: n.note })} <When lang={lang} at={n.createdAt} />
              </li>
            )),
          )}
        </ul>
      ) : (
        <p>{t(lang, 'console.moderation.noNotices')}</p>
      )}
      <h2>{t(lang, 'console.moderation.section.holds')}</h2>
      {props.holds.length ? (
        <ul class="list">
          {props.holds.map((hold) => (
            <li>
              <p class="tag-warn">
                {t(lang, 'console.moderation.activeHold', { id: hold.id, reason: hold.reason })} <When lang={lang} at={hold.placedAt} />
              </p>
              <HoldRelease lang={lang} hold={hold} back={back} />
            </li>
          ))}
        </ul>
      ) : (
        <>
          <p>{t(lang, 'console.moderation.noHold')}</p>
          <PlaceHold lang={lang} back={back} storyId={story.id} />
        </>
      )}
      {retracted ? (
        <p class="tag-bad">{t(lang, 'console.moderation.isRetracted')}</p>
      ) : (
        <>
          <section aria-labelledby="correct">
            <h2 id="correct">{t(lang, 'console.moderation.correct')}</h2>
            <p>{t(lang, 'console.moderation.correctText')}</p>
            {props.refused ? (
              <div role="alert" class="flash refused">
                <p>{consoleFlashText(lang, { kind: 'refused', message: props.refused.code })}</p>
                {props.refused.details.length ? (
                  <ul>
                    {props.refused.details.map((d) => (
                      <li>
                        <code>{d}</code>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </div>
            ) : null}
            <PostForm action={`${path}/correction/preview`} lang={lang} back={back} class="console-form stacked">
              <DraftFields lang={lang} draft={props.draft} />
              <button type="submit">{t(lang, 'console.moderation.preview')}</button>
            </PostForm>
          </section>
          <section aria-labelledby="retract">
            <h2 id="retract">{t(lang, 'console.moderation.retract')}</h2>
            <p>{t(lang, 'console.moderation.retractText')}</p>
            <PostForm action={`${path}/retraction/confirm`} lang={lang} back={back} class="console-form">
              <Field id="r-reason" label={t(lang, 'console.reason')}>
                <input id="r-reason" name="reason" required maxLength={2000} />
              </Field>
              <button type="submit" class="danger">
                {t(lang, 'console.moderation.retractNext')}
              </button>
            </PostForm>
          </section>
        </>
      )}
    </ModerationFrame>
  );
}

/** The correction as a diff of the current packet and the one it would make, with the form that sends it. */
export function CorrectionPreviewPage(props: Frame & { story: StoryResponse; draft: CorrectionDraft; diff: FieldDiff[] }) {
  const { lang, story, draft } = props;
  const path = `/console/moderation/stories/${enc(story.id)}`;
  const back = storyPage(story.id, lang);
  return (
    <ModerationFrame {...props} title={t(lang, 'console.moderation.previewTitle', { title: story.title })} here="stories" path={path}>
      <p>
        <a href={back}>{t(lang, 'console.moderation.backToStory')}</a>
      </p>
      <p class="meta">{t(lang, 'console.moderation.diffLegend')}</p>
      {props.diff.map((field) => (
        <section aria-labelledby={`field-${field.field}`}>
          <h2 id={`field-${field.field}`}>{t(lang, `console.moderation.field.${field.field}`)}</h2>
          {field.changed ? (
            <div lang={story.lang}>
              <DiffRuns diff={field} />
            </div>
          ) : (
            <p>{t(lang, 'console.moderation.unchanged')}</p>
          )}
        </section>
      ))}
      <h2>{t(lang, 'console.moderation.note')}</h2>
      <p lang={story.lang}>{draft.note}</p>
      <PostForm action={`${path}/correction`} lang={lang} back={back} class="console-form">
        <HiddenDraft draft={draft} />
        <button type="submit">{t(lang, 'console.moderation.send')}</button>
      </PostForm>
      <PostForm action={`${path}/correction/edit`} lang={lang} back={back} class="console-form">
        <HiddenDraft draft={draft} />
        <button type="submit" class="link">
          {t(lang, 'console.moderation.editAgain')}
        </button>
      </PostForm>
    </ModerationFrame>
  );
}

export function RetractionConfirmPage(props: Frame & { story: StoryResponse; reason: string }) {
  const { lang, story } = props;
  const path = `/console/moderation/stories/${enc(story.id)}`;
  const back = storyPage(story.id, lang);
  return (
    <ModerationFrame {...props} title={t(lang, 'console.moderation.retractTitle', { title: story.title })} here="stories" path={path}>
      <p>{t(lang, 'console.moderation.retractConfirm')}</p>
      <dl class="facts">
        <dt>{t(lang, 'console.moderation.story')}</dt>
        <dd>
          <code>{story.id}</code> · {story.title}
        </dd>
        <dt>{t(lang, 'console.reason')}</dt>
        <dd>{props.reason}</dd>
      </dl>
      <ActionForm lang={lang} action={`${path}/retraction`} back={back} submit={t(lang, 'console.moderation.retractSend')} danger>
        <input type="hidden" name="reason" value={props.reason} />
      </ActionForm>
      <p>
        <a href={back}>{t(lang, 'console.moderation.backToStory')}</a>
      </p>
    </ModerationFrame>
  );
}

// ---- webhook deliveries

export function DeliveriesPage(
  props: Frame & { log: DeliveryLog; state: DeliveryState | null; eventId: string | null; before: string | null },
) {
  const { lang, log, state, eventId, before } = props;
  const query = { state: state ?? undefined, event: eventId ?? undefined };
  return (
    <ModerationFrame
      {...props}
      title={t(lang, 'console.moderation.section.webhooks')}
      here="webhooks"
      path="/console/moderation/webhooks"
      query={query}
    >
      <p>{t(lang, 'console.moderation.webhooksText')}</p>
      <table>
        <caption>{t(lang, 'console.moderation.counts')}</caption>
        <thead>
          <tr>
            {DELIVERY_STATES.map((s) => (
              <th scope="col">{t(lang, `console.moderation.delivery.${s}`)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {DELIVERY_STATES.map((s) => (
              <td class="num">{log.counts[s]}</td>
            ))}
          </tr>
        </tbody>
      </table>
      <Chips
        lang={lang}
        label={t(lang, 'console.status')}
        path="/console/moderation/webhooks"
        param="state"
        values={DELIVERY_STATES}
        current={state}
        word={(s) => t(lang, `console.moderation.delivery.${s}`)}
        all
        query={{ event: eventId ?? undefined }}
      />
      <form method="get" action="/console/moderation/webhooks" class="console-form">
        <input type="hidden" name="lang" value={lang} />
        {state ? <input type="hidden" name="state" value={state} /> : null}
        <Field id="event-filter" label={t(lang, 'console.moderation.eventId')}>
          <input id="event-filter" name="event" value={eventId ?? ''} maxLength={64} pattern="[A-Za-z0-9_\-]*" />
        </Field>
        <button type="submit">{t(lang, 'console.moderation.filter')}</button>
      </form>
      {log.deliveries.length === 0 ? <p>{t(lang, 'console.empty')}</p> : null}
      {log.deliveries.map((d) => (
        <article class="card" aria-labelledby={`delivery-${d.id}`}>
          <h2 id={`delivery-${d.id}`}>
            <code>{d.type}</code> → {d.endpoint}
          </h2>
          <dl class="facts">
            <dt>{t(lang, 'console.status')}</dt>
            <dd class={`delivery-${d.state}`}>{t(lang, `console.moderation.delivery.${d.state}`)}</dd>
            <dt>{t(lang, 'console.moderation.eventId')}</dt>
            <dd>
              <a href={deliveriesHref(lang, { event: d.eventId })}>{d.eventId}</a>
            </dd>
            <dt>{t(lang, 'console.moderation.story')}</dt>
            <dd>
              <a href={storyPage(d.storyId, lang)}>{d.storyId}</a>
            </dd>
            <dt>{t(lang, 'console.moderation.queued')}</dt>
            <dd>
              <When lang={lang} at={d.createdAt} />
            </dd>
            {d.nextAttemptAt ? (
              <>
                <dt>{t(lang, 'console.moderation.nextAttempt')}</dt>
                <dd>
                  <When lang={lang} at={d.nextAttemptAt} />
                </dd>
              </>
            ) : null}
            {d.deliveredAt || d.deadAt ? (
              <>
                <dt>{t(lang, d.deliveredAt ? 'console.moderation.deliveredAt' : 'console.moderation.deadAt')}</dt>
                <dd>
                  <When lang={lang} at={d.deliveredAt ?? d.deadAt} />
                </dd>
              </>
            ) : null}
          </dl>
          {d.attempts.length ? (
            <table>
              <caption>{t(lang, 'console.moderation.attempts', { count: d.attempts.length })}</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">{t(lang, 'console.when')}</th>
                  <th scope="col">{t(lang, 'console.moderation.httpStatus')}</th>
                  <th scope="col">{t(lang, 'console.moderation.outcome')}</th>
                  <th scope="col">{t(lang, 'console.moderation.error')}</th>
                </tr>
              </thead>
              <tbody>
                {d.attempts.map((a) => (
                  <tr>
                    <th scope="row" class="num">
                      {a.attempt}
                    </th>
                    <td>
                      <When lang={lang} at={a.startedAt} />
                    </td>
                    <td class="num">{a.statusCode ?? '—'}</td>
                    <td>{t(lang, `console.moderation.outcome.${a.outcome}`)}</td>
                    <td>{a.error ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>{t(lang, 'console.moderation.notTried')}</p>
          )}
        </article>
      ))}
      <NextPage lang={lang} path="/console/moderation/webhooks" query={query} cursor={log.older} param="before" />
      {before ? (
        <p>
          <a href={deliveriesHref(lang, query)}>{t(lang, 'console.moderation.newest')}</a>
        </p>
      ) : null}
    </ModerationFrame>
  );
}
