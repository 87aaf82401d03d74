import type { AppError } from '../../../platform/errors.js';
import { t, type Lang } from '../../../platform/i18n/index.js';
import { href } from '../links.js';
import { Layout } from './layout.js';

/** A parameter of the address that was refused: unknown, a bad value, or a cursor of another list. */
export interface QueryProblem {
  name: string;
  kind: 'invalid' | 'unknown' | 'cursor';
  value: string;
}

/** Longest value quoted back on the page. */
const SHOWN_VALUE = 80;

/** The query and path parameters a refusal names (validation details, or the cursor of INVALID_CURSOR). */
export function queryProblems(failure: AppError, query: unknown): QueryProblem[] {
  const values = (query ?? {}) as Record<string, unknown>;
  const valueOf = (name: string) => {
    const value = values[name];
    const text = Array.isArray(value) ? value.join(', ') : value === undefined ? '' : String(value);
    return text.length > SHOWN_VALUE ? `${text.slice(0, SHOWN_VALUE)}…` : text;
  };
  if (failure.code === 'INVALID_CURSOR') return [{ name: 'cursor', kind: 'cursor', value: valueOf('cursor') }];
  const problems = new Map<string, QueryProblem>();
  for (const detail of failure.details ?? []) {
    const [where, name] = (detail.path ?? '').split('/').filter(Boolean);
    if ((where !== 'querystring' && where !== 'params') || !name || problems.has(name)) continue;
    problems.set(name, { name, kind: detail.message === 'unknown property' ? 'unknown' : 'invalid', value: valueOf(name) });
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
            <li>{t(lang, `site.error.param.${p.kind}`, { name: p.name, value: p.value })}</li>
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
