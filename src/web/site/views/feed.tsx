import { t, type Lang } from '../../words/index.js';
import { FEED_MODES, type FeedMode, type FeedResponse } from '../../../newsroom/feed/schemas.js';
import { roomName } from '../format.js';
import { href } from '../links.js';
import { Layout } from './layout.js';
import { CardList, More } from './parts.js';

export interface FeedPageProps {
  lang: Lang;
  mode: FeedMode;
  room: string | undefined;
  limit: number | undefined;
  page: FeedResponse;
  rooms: string[];
  /** The stories on the page that carry the collusion mark. */
  marked: ReadonlySet<string>;
}

/** Home and feed: the four modes, the rooms, the stories, "more" through the feed cursor. */
export function FeedPage(props: FeedPageProps) {
  const { lang, mode, room, limit, page } = props;
  const title = room ? `${page.modeLabel} · ${roomName(lang, room)}` : page.modeLabel;
  return (
    <Layout lang={lang} title={title} section="feed" path="/" query={{ mode, room, limit }} meta={{ roomFeed: room }}>
      <h1>{title}</h1>
      <nav aria-label={t(lang, 'site.feed.modes')}>
        <ul class="tabs">
          {FEED_MODES.map((m) => (
            <li>
              <a href={href('/', lang, { mode: m, room })} aria-current={m === mode ? 'page' : undefined}>
                {t(lang, `feedMode.${m}`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label={t(lang, 'site.feed.rooms')}>
        <h2>{t(lang, 'site.feed.rooms')}</h2>
        <ul class="chips">
          <li>
            <a href={href('/', lang, { mode })} aria-current={room === undefined ? 'page' : undefined}>
              {t(lang, 'site.feed.allRooms')}
            </a>
          </li>
          {props.rooms.map((r) => (
            <li>
              <a href={href('/', lang, { mode, room: r })} aria-current={r === room ? 'page' : undefined}>
                {roomName(lang, r)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <h2>{t(lang, 'site.stories')}</h2>
      <CardList lang={lang} id="stories" items={page.items} marked={props.marked} />
      <More
        lang={lang}
        list="stories"
        href={page.nextCursor ? href('/', lang, { mode, room, limit, cursor: page.nextCursor }) : undefined}
      />
    </Layout>
  );
}
