import { t, type Lang } from '../../words/index.js';
import type { SearchResponse } from '../../../newsroom/search/schemas.js';
import { PUBLICATION_STAGES, REVIEW_STATUSES } from '../../../newsroom/stories/story-filters.js';
import { STORY_STATES } from '../../../newsroom/stories/schemas.js';
import { href } from '../links.js';
import { Layout } from './layout.js';
import { CardList, More } from './parts.js';

export interface SearchFilters {
  q?: string;
  room?: string;
  state?: string;
  publicationStage?: string;
  reviewStatus?: string;
}

function Choice(props: { lang: Lang; name: keyof SearchFilters; label: string; value: string | undefined; options: [string, string][] }) {
  return (
    <label>
      {props.label}
      <select name={props.name}>
        <option value="">{t(props.lang, 'site.search.any')}</option>
        {props.options.map(([value, label]) => (
          <option value={value} selected={value === props.value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Search with the search route's story filters: words, room, state, publication stage, review status. */
export function SearchPage(props: { lang: Lang; filters: SearchFilters; result: SearchResponse }) {
  const { lang, filters, result } = props;
  const title = t(lang, 'module.search.title');
  return (
    <Layout lang={lang} title={filters.q ? `${filters.q} · ${title}` : title} section="search" path="/search" query={{ ...filters }}>
      <h1>{title}</h1>
      <form class="filters" method="get" action="/search" role="search">
        <input type="hidden" name="lang" value={lang} />
        <label>
          {t(lang, 'site.search.words')}
          <input type="search" name="q" value={filters.q ?? ''} maxLength={500} />
        </label>
        <label>
          {t(lang, 'site.search.room')}
          <input type="text" name="room" value={filters.room ?? ''} maxLength={64} pattern="[a-z0-9]+(-[a-z0-9]+)*" />
        </label>
        <Choice
          lang={lang}
          name="state"
          label={t(lang, 'site.label.state')}
          value={filters.state}
          options={STORY_STATES.map((s) => [s, t(lang, `state.${s}`)])}
        />
        <Choice
          lang={lang}
          name="publicationStage"
          label={t(lang, 'site.label.publicationStage')}
          value={filters.publicationStage}
          options={PUBLICATION_STAGES.map((s) => [s, t(lang, `publicationStage.${s}`)])}
        />
        <Choice
          lang={lang}
          name="reviewStatus"
          label={t(lang, 'site.label.reviewStatus')}
          value={filters.reviewStatus}
          options={REVIEW_STATUSES.map((s) => [s, t(lang, `reviewStatus.${s}`)])}
        />
        <button type="submit">{t(lang, 'site.search.submit')}</button>
      </form>
      <h2>{t(lang, result.query.order === 'relevance' ? 'site.search.byRelevance' : 'site.search.newest')}</h2>
      <CardList lang={lang} id="results" items={result.items} />
      <More
        lang={lang}
        list="results"
        href={result.nextCursor ? href('/search', lang, { ...filters, cursor: result.nextCursor }) : undefined}
      />
    </Layout>
  );
}
