import type { ComponentChildren } from 'preact';
import { t, type Lang } from '../../../platform/i18n/index.js';
import type { StoryCard } from '../../../newsroom/stories/schemas.js';
import { formatDate, formatNumber } from '../format.js';
import { storyHref } from '../links.js';

/** A date as the reader's language writes it, with the machine-readable instant. */
export function When(props: { lang: Lang; at: string }) {
  return <time datetime={props.at}>{formatDate(props.lang, props.at)}</time>;
}

export function Badge(props: { kind: string; label: string }) {
  return <span class={`badge ${props.kind}`}>{props.label}</span>;
}

/** A story in a list: title link, summary (in the story's own language), state badges, counts. */
export function Card(props: { lang: Lang; story: StoryCard; extra?: ComponentChildren }) {
  const { lang, story } = props;
  const n = (value: number) => formatNumber(lang, value);
  return (
    <li class="card">
      <h3 lang={story.lang}>
        <a href={storyHref(story.id, lang)}>{story.title}</a>
      </h3>
      <p class="meta">
        <Badge kind={story.state ?? 'NONE'} label={story.labels.state} /> <span>{story.room}</span>
        {story.publishedAt ? (
          <>
            {' · '}
            <When lang={lang} at={story.publishedAt} />
          </>
        ) : null}
      </p>
      <p lang={story.lang}>{story.summary}</p>
      <p class="meta">
        {t(lang, 'site.card.counts', {
          attestations: n(story.counts.attestations),
          objections: n(story.counts.objections),
          comments: n(story.counts.comments),
        })}
      </p>
      {props.extra}
    </li>
  );
}

/** A list of story cards, or the empty text. `id` names the list for the "more" enhancement. */
export function CardList(props: { lang: Lang; id: string; items: StoryCard[] }) {
  if (props.items.length === 0) return <p>{t(props.lang, 'site.empty')}</p>;
  return (
    <ul class="cards" id={props.id}>
      {props.items.map((story) => (
        <Card lang={props.lang} story={story} />
      ))}
    </ul>
  );
}

/** The link to the next page of a keyset-paged list (a plain link; the script loads it in place). */
export function More(props: { lang: Lang; list: string; href: string | undefined; label?: string }) {
  if (!props.href) return null;
  return (
    <p class="more">
      <a class="button" href={props.href} data-more={props.list}>
        {props.label ?? t(props.lang, 'site.more')}
      </a>
    </p>
  );
}

/** A wide table that scrolls sideways on a narrow screen; focusable, so a keyboard can scroll it too. */
export function TableWrap(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={props.label} tabIndex={0}>
      {props.children}
    </div>
  );
}
