import type { ComponentChildren } from 'preact';
import { isLabelKey, t, type Lang, type LabelKey } from '../../words/index.js';
import { formatDate } from '../../site/format.js';
import { href } from '../../site/links.js';
import type { Flash } from '../../site/session.js';
import { useVisitor } from '../../site/visitor.js';
import { PostForm } from '../../site/views/forms.js';
import { ProofFields } from '../../site/views/proof-fields.js';

/** The words of a console flash: its sentence, or the refusal's (the console's words first, then the site's). */
export function consoleFlashText(lang: Lang, flash: Flash): string {
  const params = { ...(flash.params ?? {}), seconds: flash.retryAfterSeconds ?? 60 };
  if (flash.kind === 'done') return t(lang, flash.message as LabelKey, params);
  for (const key of [`console.refused.${flash.message}`, `account.refused.${flash.message}`])
    if (isLabelKey(lang, key)) return t(lang, key, params);
  return t(lang, 'console.refused', { code: flash.message });
}

export function ConsoleFlash(props: { lang: Lang; flash: Flash | null }) {
  const { lang, flash } = props;
  if (!flash) return null;
  return (
    <p class={`flash ${flash.kind}`} role={flash.kind === 'refused' ? 'alert' : 'status'}>
      {consoleFlashText(lang, flash)}
    </p>
  );
}

/** A time as the page's language writes it, or a dash. */
export const When = (props: { lang: Lang; at: string | null | undefined }) =>
  props.at ? <time datetime={props.at}>{formatDate(props.lang, props.at)}</time> : <span>—</span>;

const relativeFormats = new Map<Lang, Intl.RelativeTimeFormat>();
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** How long ago `at` was, in the page's language ("3 hours ago", "3 小时前"); seconds read as "now". */
export function Ago(props: { lang: Lang; at: string; now: number }) {
  let format = relativeFormats.get(props.lang);
  if (!format) {
    format = new Intl.RelativeTimeFormat(props.lang, { numeric: 'auto' });
    relativeFormats.set(props.lang, format);
  }
  const elapsed = Date.parse(props.at) - props.now;
  const [unit, size] = UNITS.find(([, ms]) => Math.abs(elapsed) >= ms) ?? ['second', 1000];
  return <span>{format.format(unit === 'second' ? 0 : Math.trunc(elapsed / size), unit)}</span>;
}

/**
 * A table that scrolls sideways inside the page when it is wider than the screen (a phone), instead of breaking
 * its words: a focusable region, so a keyboard can scroll it too.
 */
export const TableScroll = (props: { label: string; children: ComponentChildren }) => (
  <div class="table-scroll" role="region" aria-label={props.label} tabIndex={0}>
    {props.children}
  </div>
);

/** A record's JSON exactly as the API holds it (payloads, traces): what an approver approves, byte for byte. */
export const JsonBlock = (props: { value: unknown; label: string }) => (
  <pre class="json" tabIndex={0} aria-label={props.label}>
    {JSON.stringify(props.value, null, 2)}
  </pre>
);

/** "Next page" with the API's cursor, keeping the page's other query parameters. */
export function NextPage(props: {
  lang: Lang;
  path: string;
  query?: Record<string, string | undefined>;
  cursor: string | null | undefined;
  param?: string;
}) {
  if (!props.cursor) return null;
  return (
    <p class="pager">
      <a href={href(props.path, props.lang, { ...props.query, [props.param ?? 'cursor']: props.cursor })} rel="next">
        {t(props.lang, 'console.next')}
      </a>
    </p>
  );
}

/** A console form: POST with the session's CSRF token, back to `back` (the page it is on). */
export function ActionForm(props: {
  lang: Lang;
  action: string;
  back: string;
  submit: string;
  class?: string;
  /** The World ID action string the form proves in the page (development login: the server makes the proof). */
  proof?: { action: string; label: string };
  danger?: boolean;
  children?: ComponentChildren;
}) {
  return (
    <PostForm action={props.action} lang={props.lang} back={props.back} class={props.class ?? 'console-form'}>
      {props.children}
      {props.proof ? <ProofFields lang={props.lang} action={props.proof.action} label={props.proof.label} /> : null}
      <button type="submit" class={props.danger ? 'danger' : undefined}>
        {props.submit}
      </button>
    </PostForm>
  );
}

/** A labelled field of a console form. */
export function Field(props: { id: string; label: string; children: ComponentChildren; hint?: string }) {
  return (
    <p class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? <small id={`${props.id}-hint`}>{props.hint}</small> : null}
    </p>
  );
}

/** Who is using the console, in one line: their display name, with the key an operator allowlists folded away. */
export function WhoAmI(props: { lang: Lang; allowlistKey: string }) {
  const { reader } = useVisitor();
  if (!reader) return null;
  const time = formatDate(props.lang, reader.expiresAt);
  if (!reader.name) return <p class="meta">{t(props.lang, 'console.whoami', { key: props.allowlistKey, time })}</p>;
  return (
    <div class="meta">
      <p>{t(props.lang, 'console.whoamiName', { name: reader.name, time })}</p>
      <details>
        <summary>{t(props.lang, 'console.yourKey')}</summary>
        <code>{props.allowlistKey}</code>
      </details>
    </div>
  );
}

/** Filter links: "all" and one per value, the current one marked. */
export function Chips<T extends string>(props: {
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

/** An area's own navigation (under the console's): its pages as links, the one shown marked. */
export function SectionNav(props: { label: string; links: ReadonlyArray<{ href: string; text: string; current: boolean }> }) {
  return (
    <nav aria-label={props.label}>
      <ul class="chips">
        {props.links.map((link) => (
          <li>
            <a href={link.href} aria-current={link.current ? 'page' : undefined}>
              {link.text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
