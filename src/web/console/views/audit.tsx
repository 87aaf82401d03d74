import { t, type Lang } from '../../words/index.js';
import type { ChainVerdict } from '../../../platform/audit/verify-chain.js';
import type { AuditEvent } from '../../../platform/audit/schemas.js';
import { GENESIS_HASH } from '../../../platform/audit/chain.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { ConsoleLayout } from './layout.js';
import { ActionForm, Ago, Field, JsonBlock, NextPage, TableScroll, When } from './parts.js';

/** The filters of the log as its address carries them (empty ones left out). */
export interface AuditFilters {
  actor?: string | undefined;
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** A row of the log: the event, and where its previous-hash link leads (null for the first row of the chain). */
export interface AuditLogRow {
  event: AuditEvent;
  previous: string | null;
}

export interface AuditProps {
  lang: Lang;
  areas: readonly ConsoleArea[];
  verdict: (ChainVerdict & { at: string }) | null;
  filters: AuditFilters;
  rows: AuditLogRow[];
  nextCursor: string | null;
  /** A refused filter (a date that is not one), as a sentence. */
  refused: string | null;
  now: number;
}

const SUMMARY_LENGTH = 120;

/** A row's details in one short line: its fields and their values, cut at SUMMARY_LENGTH characters. */
export function summarize(details: unknown): string {
  const value = (v: unknown): string => (v !== null && typeof v === 'object' ? (Array.isArray(v) ? `[${v.length}]` : '{…}') : String(v));
  const text =
    details !== null && typeof details === 'object' && !Array.isArray(details)
      ? Object.entries(details)
          .map(([k, v]) => `${k}: ${value(v)}`)
          .join(', ')
      : JSON.stringify(details);
  return text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 1)}…` : text;
}

/** A hash as the log shows it: its first 12 characters, the whole in the title. */
const ShortHash = (props: { hash: string }) => <code title={props.hash}>{`${props.hash.slice(0, 12)}…`}</code>;

/**
 * The audit chain: its rows newest first, filtered by actor, action and dates through a GET form (so a filtered
 * view has its own address), each with its hash and a link to the row before; "verify" walks every row in order
 * and names the first broken one.
 */
export function AuditPage(props: AuditProps) {
  const { lang, verdict, filters } = props;
  const query = { actor: filters.actor, action: filters.action, from: filters.from, to: filters.to };
  return (
    <ConsoleLayout lang={lang} title={t(lang, 'console.area.audit')} areas={props.areas} area="audit" path="/console/audit" query={query}>
      <h1>{t(lang, 'console.area.audit')}</h1>
      <p>{t(lang, 'console.audit.text')}</p>
      <ActionForm
        lang={lang}
        action="/console/audit/verify"
        back={href('/console/audit', lang, query)}
        submit={t(lang, 'console.audit.verify')}
      />
      {verdict ? <Verdict lang={lang} verdict={verdict} /> : null}

      <section aria-labelledby="log">
        <h2 id="log">{t(lang, 'console.audit.log')}</h2>
        <form method="get" action="/console/audit" class="console-form">
          <input type="hidden" name="lang" value={lang} />
          <Field id="audit-actor" label={t(lang, 'console.audit.actor')}>
            <input id="audit-actor" name="actor" maxLength={200} value={filters.actor ?? ''} />
          </Field>
          <Field id="audit-action" label={t(lang, 'console.audit.action')}>
            <input id="audit-action" name="action" maxLength={100} value={filters.action ?? ''} />
          </Field>
          <Field id="audit-from" label={t(lang, 'console.audit.from')}>
            <input id="audit-from" name="from" type="date" value={filters.from ?? ''} />
          </Field>
          <Field id="audit-to" label={t(lang, 'console.audit.to')}>
            <input id="audit-to" name="to" type="date" value={filters.to ?? ''} />
          </Field>
          <button type="submit">{t(lang, 'console.audit.filter')}</button>
        </form>
        {props.refused ? (
          <p class="flash refused" role="alert">
            {props.refused}
          </p>
        ) : null}
        {props.rows.length === 0 && !props.refused ? <p>{t(lang, 'console.audit.none')}</p> : null}
        {props.rows.length ? (
          <TableScroll label={t(lang, 'console.area.audit')}>
            <table class="audit-log">
              <thead>
                <tr>
                  <th scope="col">{t(lang, 'console.audit.seq')}</th>
                  <th scope="col">{t(lang, 'console.audit.time')}</th>
                  <th scope="col">{t(lang, 'console.audit.actor')}</th>
                  <th scope="col">{t(lang, 'console.audit.action')}</th>
                  <th scope="col">{t(lang, 'console.audit.target')}</th>
                  <th scope="col">{t(lang, 'console.audit.summary')}</th>
                  <th scope="col">{t(lang, 'console.audit.hash')}</th>
                  <th scope="col">{t(lang, 'console.audit.previous')}</th>
                </tr>
              </thead>
              <tbody>
                {props.rows.map(({ event, previous }) => (
                  <tr id={`audit-${event.seq}`} data-hash={event.hash}>
                    <th scope="row" class="num">
                      {event.seq}
                    </th>
                    <td>
                      <When lang={lang} at={event.createdAt} />
                      <br />
                      <small>
                        <Ago lang={lang} at={event.createdAt} now={props.now} />
                      </small>
                    </td>
                    <td>
                      {/* the key the console shows everywhere (the allowlists' key); the raw ids in the title */}
                      <code title={event.linkedHumanId ? `${event.actorId} · ${event.linkedHumanId}` : event.actorId}>
                        {event.linkedHumanId ?? event.actorId}
                      </code>
                    </td>
                    <td>
                      <code>{event.action}</code>
                    </td>
                    <td>
                      <code>{event.target}</code>
                    </td>
                    <td>
                      <details>
                        <summary>{summarize(event.details)}</summary>
                        <JsonBlock value={event.details} label={t(lang, 'console.audit.details', { seq: event.seq })} />
                      </details>
                    </td>
                    <td>
                      <ShortHash hash={event.hash} />
                    </td>
                    <td>
                      {previous ? (
                        <a href={previous} class="previous">
                          <ShortHash hash={event.prevHash} />
                        </a>
                      ) : (
                        <span title={GENESIS_HASH}>{t(lang, 'console.audit.genesis')}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : null}
        <NextPage lang={lang} path="/console/audit" query={query} cursor={props.nextCursor} />
      </section>
    </ConsoleLayout>
  );
}

function Verdict(props: { lang: Lang; verdict: ChainVerdict & { at: string } }) {
  const { lang, verdict } = props;
  return (
    <section aria-labelledby="verdict">
      <h2 id="verdict">
        {t(lang, 'console.audit.verdict')} <When lang={lang} at={verdict.at} />
      </h2>
      {verdict.ok ? (
        <dl class="facts">
          <dt>{t(lang, 'console.audit.events')}</dt>
          <dd class="tag-ok">{verdict.events}</dd>
          <dt>{t(lang, 'console.audit.head')}</dt>
          <dd>
            <code class="hash">{verdict.headHash}</code>
          </dd>
        </dl>
      ) : (
        <dl class="facts">
          <dt>{t(lang, 'console.audit.brokenRow')}</dt>
          <dd class="tag-bad">
            seq {verdict.broken.seq} · <code>{verdict.broken.id}</code>
          </dd>
          <dt>{t(lang, 'console.audit.why')}</dt>
          <dd>
            <code>{verdict.broken.reason}</code>
          </dd>
          <dt>{t(lang, 'console.audit.before')}</dt>
          <dd>{verdict.events}</dd>
        </dl>
      )}
    </section>
  );
}
