import { t, type Lang } from '../../words/index.js';
import type { CandidateField } from '../../../newsroom/moderation/quarantine-service.js';
import type { RuleSpan } from '../../../newsroom/moderation/safety-scan.js';
import { enc } from './moderation-frame.js';

/** The safety scan's rules, each named in words. */
const RULES = [
  'csam.minor-sexual',
  'threat.first-person-intent',
  'threat.targeted-call',
  'doxxing.phone-number',
  'doxxing.street-address',
  'doxxing.government-id',
  'health.miracle-cure',
  'health.vaccine-misinformation',
  'violence.graphic-description',
  'source.banned',
] as const;
type RuleId = (typeof RULES)[number];

/** A rule in words ("a miracle-cure health claim"); a rule the console does not know yet by its id. */
export const ruleWords = (lang: Lang, id: string) =>
  (RULES as readonly string[]).includes(id) ? t(lang, `console.moderation.rule.${id as RuleId}`) : id;

/** A field's name in words: the trace's `claims/0` is "Claim 1". */
function fieldWords(lang: Lang, name: string) {
  const [kind, index] = name.split('/');
  if (kind === 'claims') return t(lang, 'console.moderation.fieldClaim', { n: Number(index) + 1 });
  if (kind === 'sources') return t(lang, 'console.moderation.fieldSource', { n: Number(index) + 1 });
  return kind === 'title' || kind === 'summary' || kind === 'body' ? t(lang, `console.moderation.field.${kind}`) : name;
}

/** The text cut where spans start and end, each run with the rules whose spans cover it (overlaps merged). */
function runsOf(text: string, spans: readonly RuleSpan[]): { text: string; rules: string[] }[] {
  const cuts = [...new Set([0, text.length, ...spans.flatMap((s) => [s.start, s.end])])].sort((a, b) => a - b);
  const runs: { text: string; rules: string[] }[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [from, to] = [cuts[i]!, cuts[i + 1]!];
    const rules = [...new Set(spans.filter((s) => s.start <= from && s.end >= to).map((s) => s.rule))];
    const last = runs[runs.length - 1];
    if (last && last.rules.join() === rules.join()) last.text += text.slice(from, to);
    else runs.push({ text: text.slice(from, to), rules });
  }
  return runs;
}

/** One field's text with what fired marked in place, the rule named in words after each mark. */
function MarkedField(props: { lang: Lang; field: CandidateField }) {
  const { lang, field } = props;
  return (
    <>
      <dt>{fieldWords(lang, field.name)}</dt>
      <dd class="candidate-text">
        {runsOf(field.text, field.spans).map((run) =>
          run.rules.length ? (
            <>
              <mark data-rule={run.rules.join(' ')}>{run.text}</mark>
              <small class="rule-tag"> [{run.rules.map((r) => ruleWords(lang, r)).join('; ')}]</small>
            </>
          ) : (
            run.text
          ),
        )}
        {field.whole.length ? (
          <small class="rule-tag tag-bad">
            {' '}
            [{t(lang, 'console.moderation.firedWhole', { rules: field.whole.map((r) => ruleWords(lang, r)).join('; ') })}]
          </small>
        ) : null}
      </dd>
    </>
  );
}

/** The candidate's text as the scan read it (title, summary, body, claims, sources), marked where rules fired. */
export function CandidateText(props: { lang: Lang; id: string; fields: CandidateField[] | null }) {
  const { lang, fields } = props;
  const heading = `text-${props.id}`;
  return (
    <section aria-labelledby={heading}>
      <h3 id={heading}>{t(lang, 'console.moderation.candidateText')}</h3>
      {fields ? (
        <dl class="facts candidate">
          {fields
            .filter((f) => f.text.trim() || f.whole.length)
            .map((field) => (
              <MarkedField lang={lang} field={field} />
            ))}
        </dl>
      ) : (
        <p>{t(lang, 'console.moderation.textGone')}</p>
      )}
    </section>
  );
}

export const itemPath = (scopeId: string) => `/console/moderation/quarantine/story/${enc(scopeId)}`;
