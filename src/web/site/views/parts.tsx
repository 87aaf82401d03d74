import { Fragment, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import { t, type Lang } from '../../words/index.js';
import type { StoryCard } from '../../../newsroom/stories/schemas.js';
import { formatDate, formatRelative, languageName, roomName, sameLanguage } from '../format.js';
import { PageNow } from '../visitor.js';
import { botHref, href, personHref, storyHref } from '../links.js';

/**
 * When something happened, as how long ago in the reader's language ("3 hours ago", "yesterday"), with the
 * machine-readable instant and the exact time (in UTC) on hover. The page's script rewrites the words on load
 * (`data-ago`), so that a page served from the read cache a minute later still says the truth.
 */
export function When(props: { lang: Lang; at: string }) {
  const now = useContext(PageNow) ?? Date.now();
  return (
    <time datetime={props.at} title={formatDate(props.lang, props.at)} data-ago="">
      {formatRelative(props.lang, props.at, now)}
    </time>
  );
}

/** An exact date as the reader's language writes it, in UTC (a window's bounds), with the machine-readable instant. */
export function Exact(props: { lang: Lang; at: string }) {
  return <time datetime={props.at}>{formatDate(props.lang, props.at)}</time>;
}

/** How long ago, in words ("3 hours ago"), with the machine-readable instant and the exact time on hover. */
export function Ago(props: { lang: Lang; at: string; now: number }) {
  const exact = formatDate(props.lang, props.at);
  return (
    <time datetime={props.at} title={exact} data-ago="">
      {formatRelative(props.lang, props.at, props.now)}
    </time>
  );
}

/** A content admin (or another role the service names) in words; the person's identity key only on hover. */
export function Editor(props: { lang: Lang; role: 'CONTENT_ADMIN'; id?: string | undefined }) {
  return (
    <span class="editor" title={props.id}>
      {t(props.lang, `site.role.${props.role}`)}
    </span>
  );
}

/** "Corrected" or "Retracted" on a card: a retracted story says so; a corrected one when a content admin changed it. */
export function CorrectionLabel(props: { lang: Lang; story: Pick<StoryCard, 'reviewStatus' | 'correctedAt'> }) {
  const { lang, story } = props;
  if (story.reviewStatus === 'RETRACTED') return <Badge kind="RETRACTED" label={t(lang, 'site.card.retracted')} />;
  if (story.correctedAt) return <Badge kind="CORRECTED" label={t(lang, 'site.card.corrected')} />;
  return null;
}

export function Badge(props: { kind: string; label: string }) {
  return <span class={`badge ${props.kind}`}>{props.label}</span>;
}

/**
 * A translated sentence with elements in it: `text` is a label whose `{name}` placeholders were left unfilled
 * (t() leaves a placeholder without a value as written), each replaced here by `parts[name]`.
 */
export function Sentence(props: { text: string; parts: Record<string, ComponentChildren> }) {
  const pieces = props.text.split(/\{(\w+)\}/);
  // split with a capture group alternates text (even indexes) and placeholder names (odd indexes)
  return <>{pieces.map((piece, i) => (i % 2 === 0 ? piece : <Fragment>{props.parts[piece] ?? `{${piece}}`}</Fragment>))}</>;
}

/**
 * A bot by its display name, linked to its profile, its id on hover; a bot without a name on record by a short
 * form of its id.
 */
export function BotName(props: { lang: Lang; botId: string; name: string | undefined }) {
  const { botId } = props;
  const label = props.name ?? t(props.lang, 'site.bot.unnamed', { short: botId.replace(/^bot_/, '').slice(0, 6) });
  return (
    <a class="bot" href={botHref(botId, props.lang)} title={botId}>
      {label}
    </a>
  );
}

/** A person by their display name, linked to their profile; one without a name is "a reader" (no id is shown). */
export function PersonName(props: { lang: Lang; name: string | undefined }) {
  if (!props.name) return <span class="person">{t(props.lang, 'site.comment.anonymous')}</span>;
  return (
    <a class="person" href={personHref(props.name, props.lang)}>
      {props.name}
    </a>
  );
}

/** Codes for machines (hashes, reference ids) folded behind a summary in words; open it to read or copy them. */
export function Reference(props: { summary: string; children: ComponentChildren }) {
  return (
    <details class="reference">
      <summary>{props.summary}</summary>
      {props.children}
    </details>
  );
}

/** A claim named by its number in the current version (linked to it), or as a claim of an earlier version; its id on hover. */
export function ClaimRef(props: { lang: Lang; claims: { id: string }[]; id: string; storyPath: string }) {
  const { lang, id } = props;
  const index = props.claims.findIndex((claim) => claim.id === id);
  if (index < 0) return <span title={id}>{t(lang, 'site.claim.earlier')}</span>;
  return (
    <a href={`${props.storyPath}#claim-${id}`} title={id}>
      {t(lang, 'site.claim.number', { number: index + 1 })}
    </a>
  );
}

/** A story in a list: title link, summary (in the story's own language), state badges, counts. */
export function Card(props: { lang: Lang; story: StoryCard; extra?: ComponentChildren }) {
  const { lang, story } = props;
  return (
    <li class="card">
      <h3 lang={story.lang}>
        <a href={storyHref(story.id, lang)}>{story.title}</a>
      </h3>
      <p class="meta">
        <Badge kind={story.state ?? 'NONE'} label={story.labels.state} /> <CorrectionLabel lang={lang} story={story} />{' '}
        <span class="room">{roomName(lang, story.room)}</span>
        {sameLanguage(lang, story.lang) ? null : (
          <>
            {' · '}
            <span class="in-lang">{t(lang, 'site.card.inLang', { language: languageName(lang, story.lang) })}</span>
          </>
        )}
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
          attestations: t(lang, 'site.count.attestations', { count: story.counts.attestations }),
          objections: t(lang, 'site.count.objections', { count: story.counts.objections }),
          comments: t(lang, 'site.count.comments', { count: story.counts.comments }),
        })}
      </p>
      {props.extra}
    </li>
  );
}

/**
 * A list of story cards, or the empty text. `id` names the list for the "more" enhancement; the stories in
 * `marked` carry the collusion mark, linked to what it means.
 */
export function CardList(props: { lang: Lang; id: string; items: StoryCard[]; marked?: ReadonlySet<string> }) {
  const { lang } = props;
  if (props.items.length === 0) return <p>{t(lang, 'site.empty')}</p>;
  return (
    <ul class="cards" id={props.id}>
      {props.items.map((story) => (
        <Card
          lang={lang}
          story={story}
          extra={
            props.marked?.has(story.id) ? (
              <p class="meta collusion">
                <a href={`${href('/how-it-works', lang)}#collusion`}>{t(lang, 'site.collusion.card')}</a>
              </p>
            ) : undefined
          }
        />
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
