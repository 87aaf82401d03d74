import { t, type Lang } from '../../words/index.js';
import type { SearchResponse } from '../../../newsroom/search/schemas.js';
import { PUBLICATION_STAGES, REVIEW_STATUSES } from '../../../newsroom/stories/story-filters.js';
import { STORY_STATES } from '../../../newsroom/stories/schemas.js';
import { roomName } from '../format.js';
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

/** The form the words box and the filters (placed after the results) belong to. */
const FORM = 'search-form';

function Choice(props: {
  lang: Lang;
  name: keyof SearchFilters;
  label: string;
  value: string | undefined;
  options: [string, string][];
  any?: string;
}) {
  return (
    <label>
      {props.label}
      <select name={props.name} form={FORM}>
        <option value="">{props.any ?? t(props.lang, 'site.search.any')}</option>
        {props.options.map(([value, label]) => (
          <option value={value} selected={value === props.value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * What a search that found nothing says: what was searched, the suggestion (already shown above), and what to
 * try, with a link that keeps the words and drops the filters.
 */
function NoMatch(props: { lang: Lang; filters: SearchFilters }) {
  const { lang, filters } = props;
  const filtered = [filters.room, filters.state, filters.publicationStage, filters.reviewStatus].some((f) => f !== undefined);
  return (
    <div class="no-match" id="no-match">
      <p>{filters.q ? t(lang, 'site.search.noMatch', { q: filters.q }) : t(lang, 'site.search.noMatchFilters')}</p>
      <p>{t(lang, 'site.search.tips')}</p>
      <ul class="list">
        {filters.q ? <li>{t(lang, 'site.search.tip.spelling')}</li> : null}
        {filters.q ? <li>{t(lang, 'site.search.tip.fewer')}</li> : null}
        {filtered ? (
          <li>
            <a href={href('/search', lang, { q: filters.q })} id="without-filters">
              {t(lang, 'site.search.tip.filters')}
            </a>
          </li>
        ) : null}
      </ul>
    </div>
  );
}

/**
 * Search: the words, then the results (a "did you mean" when the words found nothing), then the filters (room,
 * state, publication stage, review status), which a wide screen shows beside the results and a phone after them,
 * folded.
 */
export function SearchPage(props: { lang: Lang; filters: SearchFilters; result: SearchResponse; rooms: string[] }) {
  const { lang, filters, result } = props;
  const title = t(lang, 'module.search.title');
  const rooms = filters.room && !props.rooms.includes(filters.room) ? [...props.rooms, filters.room] : props.rooms;
  const filtered = [filters.room, filters.state, filters.publicationStage, filters.reviewStatus].some((f) => f !== undefined);
  const suggestion = result.suggestion;
  return (
    <Layout lang={lang} title={filters.q ? `${filters.q} · ${title}` : title} section="search" path="/search" query={{ ...filters }}>
      <h1>{title}</h1>
      <div class="search-layout">
        <form class="filters search-words" id={FORM} method="get" action="/search" role="search">
          <input type="hidden" name="lang" value={lang} />
          <label>
            {t(lang, 'site.search.words')}
            <input type="search" name="q" value={filters.q ?? ''} maxLength={500} />
          </label>
          <button type="submit">{t(lang, 'site.search.submit')}</button>
        </form>
        <section class="search-results" aria-labelledby="results-heading">
          <h2 id="results-heading">{t(lang, result.query.order === 'relevance' ? 'site.search.byRelevance' : 'site.search.newest')}</h2>
          {suggestion ? (
            <p class="did-you-mean">
              {t(lang, 'site.search.didYouMean.before')}{' '}
              <a href={href('/search', lang, { ...filters, q: suggestion.q })} id="did-you-mean">
                {filters.q ? <del>{filters.q}</del> : null} → <ins>{suggestion.q}</ins>
              </a>
              {t(lang, 'site.search.didYouMean.after')}
            </p>
          ) : null}
          {result.items.length === 0 ? (
            <NoMatch lang={lang} filters={filters} />
          ) : (
            <CardList lang={lang} id="results" items={result.items} />
          )}
          <More
            lang={lang}
            list="results"
            href={result.nextCursor ? href('/search', lang, { ...filters, cursor: result.nextCursor }) : undefined}
          />
        </section>
        <details class="search-filters" open={filtered}>
          <summary>{t(lang, 'site.search.filters')}</summary>
          <div class="filters">
            <Choice
              lang={lang}
              name="room"
              label={t(lang, 'site.search.room')}
              value={filters.room}
              options={rooms.map((r) => [r, roomName(lang, r)])}
              any={t(lang, 'site.search.allRooms')}
            />
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
            <button type="submit" form={FORM}>
              {t(lang, 'site.search.apply')}
            </button>
          </div>
        </details>
      </div>
    </Layout>
  );
}
