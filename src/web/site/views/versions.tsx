import { t, type Lang } from '../../words/index.js';
import type { VersionsResponse } from '../../../newsroom/stories/evidence-schemas.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import type { FieldDiff } from '../diff.js';
import { href, storyHref } from '../links.js';
import type { BotNames } from '../service.js';
import { Layout } from './layout.js';
import { VersionList } from './story-parts.js';

export interface VersionsPageProps {
  lang: Lang;
  story: StoryResponse;
  versions: VersionsResponse;
  from: number;
  to: number;
  /** null when the two versions are the same one. */
  diff: FieldDiff[] | null;
  botNames: BotNames;
}

/** One field's diff: removed text in <del>, added text in <ins> (words for texts, lines for claims and sources). */
export function DiffRuns(props: { diff: FieldDiff }) {
  const { diff } = props;
  if (diff.field === 'claims' || diff.field === 'sources') {
    return (
      <ul class="diff-lines">
        {diff.runs.map((run) => (
          <li>{run.kind === 'added' ? <ins>{run.value}</ins> : run.kind === 'removed' ? <del>{run.value}</del> : run.value}</li>
        ))}
      </ul>
    );
  }
  return (
    <p class="story-body">
      {diff.runs.map((run) =>
        run.kind === 'added' ? <ins>{run.value}</ins> : run.kind === 'removed' ? <del>{run.value}</del> : run.value,
      )}
    </p>
  );
}

/** Two versions of a story side by side as one readable diff, with a form to pick any two. */
export function VersionsPage(props: VersionsPageProps) {
  const { lang, story, from, to } = props;
  const base = `/stories/${encodeURIComponent(story.id)}/versions`;
  const numbers = props.versions.versions.map((v) => v.version);
  const title = t(lang, 'site.diff.title', { from, to });
  return (
    <Layout
      lang={lang}
      title={`${title} · ${story.title}`}
      section="story"
      meta={{ description: story.summary, ogType: 'article' }}
      path={base}
      query={{ from, to }}
    >
      <p>
        <a href={storyHref(story.id, lang)} lang={story.lang}>
          {story.title}
        </a>
      </p>
      <h1>{title}</h1>
      <form class="filters" method="get" action={base}>
        <input type="hidden" name="lang" value={lang} />
        {(['from', 'to'] as const).map((name) => (
          <label>
            {t(lang, `site.diff.${name}`)}
            <select name={name}>
              {numbers.map((n) => (
                <option value={n} selected={n === (name === 'from' ? from : to)}>
                  {t(lang, 'site.version', { version: n })}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button type="submit">{t(lang, 'site.diff.show')}</button>
      </form>
      {props.diff === null ? (
        <p>{t(lang, 'site.diff.same')}</p>
      ) : (
        <>
          <p class="meta">{t(lang, 'site.diff.legend')}</p>
          {props.diff.map((field) => (
            <section aria-labelledby={`field-${field.field}`}>
              <h2 id={`field-${field.field}`}>{t(lang, `site.field.${field.field}`)}</h2>
              {field.changed ? (
                <div lang={story.lang}>
                  <DiffRuns diff={field} />
                </div>
              ) : (
                <p>{t(lang, 'site.diff.unchanged')}</p>
              )}
            </section>
          ))}
        </>
      )}
      <VersionList lang={lang} storyId={story.id} versions={props.versions} botNames={props.botNames} />
      <p>
        <a href={href(`/stories/${encodeURIComponent(story.id)}/machine-room`, lang)}>{t(lang, 'site.machineRoom.link')}</a>
      </p>
    </Layout>
  );
}
