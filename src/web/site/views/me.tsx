import { t, type Lang } from '../../words/index.js';
import type { FeedResponse } from '../../../newsroom/feed/schemas.js';
import type { BookmarksPage } from '../../../readers/users/bookmark-schemas.js';
import type { PreferencesResponse } from '../../../readers/users/schemas.js';
import type { TopicsList } from '../../../readers/users/topic-schemas.js';
import { LANGS } from '../../../platform/schemas.js';
import { formatDate, roomName } from '../format.js';
import { href, storyHref } from '../links.js';
import { useVisitor } from '../visitor.js';
import { PostForm } from './forms.js';
import { LANG_NAMES, Layout } from './layout.js';
import { Badge, CardList, PersonName, Reference, Sentence, When } from './parts.js';

export interface MyNewsroomProps {
  lang: Lang;
  feed: FeedResponse;
  bookmarks: BookmarksPage;
  topics: TopicsList;
  preferences: PreferencesResponse;
}

/** A saved story that a content admin corrected or retracted after the reader saved it says so. */
function ChangedSinceSaved(props: { lang: Lang; item: BookmarksPage['items'][number] }) {
  const { story, bookmarkedAt } = props.item;
  if (!story?.correctedAt || Date.parse(story.correctedAt) <= Date.parse(bookmarkedAt)) return null;
  const retracted = story.reviewStatus === 'RETRACTED';
  return (
    <Badge
      kind={retracted ? 'RETRACTED' : 'CORRECTED'}
      label={t(props.lang, retracted ? 'account.me.bookmarks.retractedSince' : 'account.me.bookmarks.correctedSince')}
    />
  );
}

/** A followed topic in words: a room by its name, any other topic as the reader wrote it. */
const topicName = (lang: Lang, topic: { kind: string; label: string }) =>
  topic.kind === 'ROOM' ? roomName(lang, topic.label) : topic.label;

/** "My newsroom": the reader's own feed, bookmarks, followed rooms and topics, preferences, history and data. */
export function MyNewsroomPage(props: MyNewsroomProps) {
  const { lang, feed, bookmarks, topics, preferences } = props;
  const { reader } = useVisitor();
  const back = href('/me', lang);
  return (
    <Layout lang={lang} title={t(lang, 'account.me.title')} section="account" path="/me">
      <h1>{t(lang, 'account.me.title')}</h1>
      {reader ? (
        <section aria-labelledby="my-name">
          <h2 id="my-name">{t(lang, 'account.name.label')}</h2>
          <p>
            {reader.name ? (
              <Sentence text={t(lang, 'account.name.yours')} parts={{ name: <PersonName lang={lang} name={reader.name} /> }} />
            ) : (
              t(lang, 'account.name.none')
            )}{' '}
            <a href={href('/me/name', lang, { next: back })}>{t(lang, reader.name ? 'account.name.link' : 'account.name.choose')}</a>
          </p>
          <p class="meta">{t(lang, 'account.me.session', { time: formatDate(lang, reader.expiresAt) })}</p>
          <p>
            <a href={href('/me/activity', lang)}>{t(lang, 'account.activity.title')}</a>
          </p>
          <Reference summary={t(lang, 'site.bot.ids')}>
            <code>{reader.accountId}</code>
          </Reference>
        </section>
      ) : null}
      <section aria-labelledby="for-you">
        <h2 id="for-you">{t(lang, 'account.me.feed')}</h2>
        <p class="meta">{t(lang, 'account.me.feedNote')}</p>
        <CardList lang={lang} id="for-you-list" items={feed.items} />
      </section>
      <section aria-labelledby="topics">
        <h2 id="topics">{t(lang, 'account.me.topics')}</h2>
        {topics.items.length === 0 ? (
          <p>{t(lang, 'account.me.topics.empty')}</p>
        ) : (
          <ul class="list">
            {topics.items.map((topic) => (
              <li>
                <PostForm action="/me/topics/remove" lang={lang} back={back} class="inline">
                  <span>{topicName(lang, topic)}</span> <input type="hidden" name="topic" value={topic.topic} />
                  <input type="hidden" name="kind" value={topic.kind} />
                  <button type="submit">{t(lang, 'account.unfollow', { topic: topicName(lang, topic) })}</button>
                </PostForm>
              </li>
            ))}
          </ul>
        )}
        <PostForm action="/me/topics" lang={lang} back={back}>
          <label for="topic-name">{t(lang, 'account.me.topic.label')}</label>
          <input id="topic-name" name="topic" required maxLength={100} />
          <input type="hidden" name="kind" value="TAG" />
          <button type="submit">{t(lang, 'account.me.topic.submit')}</button>
        </PostForm>
      </section>
      <section aria-labelledby="bookmarks">
        <h2 id="bookmarks">{t(lang, 'account.me.bookmarks')}</h2>
        {bookmarks.items.length === 0 ? (
          <p>{t(lang, 'account.me.bookmarks.empty')}</p>
        ) : (
          <ul class="list">
            {bookmarks.items.map((item) => (
              <li>
                {item.story ? (
                  <a href={storyHref(item.storyId, lang)} lang={item.story.lang}>
                    {item.story.title}
                  </a>
                ) : (
                  <span>{t(lang, 'account.me.bookmarks.hidden')}</span>
                )}{' '}
                <span class="meta">
                  <When lang={lang} at={item.bookmarkedAt} />
                </span>{' '}
                <ChangedSinceSaved lang={lang} item={item} />
                <PostForm action={`/stories/${encodeURIComponent(item.storyId)}/bookmark/remove`} lang={lang} back={back} class="inline">
                  <button type="submit">{t(lang, 'account.bookmark.remove')}</button>
                </PostForm>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="preferences">
        <h2 id="preferences">{t(lang, 'account.me.preferences')}</h2>
        <PostForm action="/me/preferences" lang={lang} back={back}>
          <label for="pref-lang">{t(lang, 'account.me.pref.lang')}</label>
          <select id="pref-lang" name="siteLang">
            {LANGS.map((code) => (
              <option value={code} selected={(preferences.preferences.lang ?? lang) === code} lang={code}>
                {LANG_NAMES[code]}
              </option>
            ))}
          </select>
          <p class="check">
            <input
              type="checkbox"
              id="pref-history"
              name="personalization"
              value="1"
              checked={preferences.preferences.personalization === true}
            />
            <label for="pref-history">{t(lang, 'account.me.pref.history')}</label>
          </p>
          <button type="submit">{t(lang, 'account.me.pref.submit')}</button>
        </PostForm>
      </section>
      <section aria-labelledby="history">
        <h2 id="history">{t(lang, 'account.me.history')}</h2>
        <p>{t(lang, 'account.me.history.text')}</p>
        <p>
          <a class="button" href={href('/me/history/clear', lang)}>
            {t(lang, 'account.me.history.clear')}
          </a>
        </p>
      </section>
      <section aria-labelledby="data">
        <h2 id="data">{t(lang, 'account.me.export')}</h2>
        <p>{t(lang, 'account.me.export.text')}</p>
        <p>
          <a class="button" href={href('/me/export', lang)} download="newsroom-export.json">
            {t(lang, 'account.me.export.download')}
          </a>
        </p>
      </section>
    </Layout>
  );
}
