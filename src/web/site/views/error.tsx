import type { AppError } from '../../../platform/errors.js';
import { t, type Lang } from '../../words/index.js';
import { href } from '../links.js';
import { Layout } from './layout.js';

/**
 * A parameter of the address or a field of a form that was refused: unknown, a bad value, a cursor that is not
 * one of this list's, or a form's field that is missing.
 */
export type QueryProblem = { name: string; value: string } & (
  { form?: false; kind: 'invalid' | 'unknown' | 'cursor' } | { form: true; kind: 'invalid' | 'unknown' | 'missing' }
);

/** Longest value quoted back on the page. */
const SHOWN_VALUE = 80;

/** What a request carried: its query, path parameters and form (as parsed, before validation refused them). */
export interface SentValues {
  query?: unknown;
  params?: unknown;
  body?: unknown;
}

const shown = (values: unknown, name: string) => {
  const value = (values as Record<string, unknown> | null | undefined)?.[name];
  const text = Array.isArray(value) ? value.join(', ') : value === undefined || value === null ? '' : String(value);
  return text.length > SHOWN_VALUE ? `${text.slice(0, SHOWN_VALUE)}…` : text;
};

/** One validation detail as a problem: `/querystring/<name>` or `/params/<name>` of the address, `/<name>` of a form. */
function problemOf(path: string | undefined, message: string | undefined, sent: SentValues): QueryProblem | null {
  const [where, field] = (path ?? '').split('/').filter(Boolean);
  const unknown = message === 'unknown property';
  if (where === 'querystring' || where === 'params') {
    if (!field) return null;
    const value = shown(where === 'querystring' ? sent.query : sent.params, field);
    // a cursor its pattern refused is named as any cursor this list did not issue
    return { name: field, value, kind: unknown ? 'unknown' : field === 'cursor' ? 'cursor' : 'invalid' };
  }
  if (!where || sent.body === null || typeof sent.body !== 'object') return null;
  const missing = message?.startsWith('must have required property') === true;
  return { name: where, value: shown(sent.body, where), form: true, kind: unknown ? 'unknown' : missing ? 'missing' : 'invalid' };
}

/** The query and path parameters and the form fields a refusal names (validation details, or the cursor of INVALID_CURSOR). */
export function queryProblems(failure: AppError, sent: SentValues): QueryProblem[] {
  if (failure.code === 'INVALID_CURSOR') return [{ name: 'cursor', kind: 'cursor', value: shown(sent.query, 'cursor') }];
  const problems = new Map<string, QueryProblem>();
  for (const detail of failure.details ?? []) {
    const problem = problemOf(detail.path, detail.message, sent);
    const key = problem && `${problem.form ? 'form' : 'address'}:${problem.name}`;
    if (problem && key && !problems.has(key)) problems.set(key, problem);
  }
  return [...problems.values()];
}

/**
 * A refused or failed page, in the reader's language, with the status it answers; a 400 names what was wrong, a
 * 429 how long to wait (the sentence a refused form's flash uses).
 */
export function ErrorPage(props: { lang: Lang; status: number; requestId: string; problems?: QueryProblem[]; retryAfterSeconds?: number }) {
  const { lang, status, retryAfterSeconds } = props;
  const kind = status === 404 ? 'notFound' : status === 429 ? 'tooMany' : status < 500 ? 'badRequest' : 'failed';
  const title = t(lang, `site.error.${kind}`);
  const problems = props.problems ?? [];
  const text =
    kind === 'tooMany' && retryAfterSeconds !== undefined
      ? t(lang, 'account.refused.RATE_LIMITED', { seconds: retryAfterSeconds })
      : t(lang, `site.error.${kind}.text`);
  return (
    <Layout lang={lang} title={title} section="story" path="/">
      <h1>{title}</h1>
      <p>{text}</p>
      {problems.length ? (
        <ul class="problems">
          {problems.map((p) => (
            <li>{t(lang, p.form ? `site.error.field.${p.kind}` : `site.error.param.${p.kind}`, { name: p.name, value: p.value })}</li>
          ))}
        </ul>
      ) : null}
      <p class="meta">
        {t(lang, 'site.error.reference')} <code>{props.requestId}</code>
      </p>
      <p>
        <a href={href('/', lang)}>{t(lang, 'site.error.back')}</a>
      </p>
    </Layout>
  );
}
