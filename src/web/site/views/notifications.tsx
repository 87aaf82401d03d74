import { t, type Lang } from '../../words/index.js';
import type { ShownNotification } from '../notifications.js';
import { href, storyHref } from '../links.js';
import { PostForm } from './forms.js';
import { Layout } from './layout.js';
import { When } from './parts.js';

/** One notification: what happened, linked to where (the reply in place, the story), when, and "new". */
function Item(props: { lang: Lang; n: ShownNotification }) {
  const { lang, n } = props;
  const story = storyHref(n.storyId, lang);
  return (
    <li class={n.unread ? 'unread' : undefined}>
      {n.unread ? <strong class="badge">{t(lang, 'site.notifications.new')}</strong> : null}{' '}
      {n.kind === 'reply' ? (
        <a href={`${story}#comment-${n.id}`}>
          {t(lang, 'site.notifications.reply', { name: n.name ?? t(lang, 'site.notifications.someone'), title: n.title })}
        </a>
      ) : (
        <>
          <a href={story}>{t(lang, `site.notifications.${n.kind}`, { title: n.title, because: n.because[0] ?? 'saved' })}</a>
          <p class="note">
            <strong>{t(lang, 'site.correction.why')}</strong> {n.note}
          </p>
        </>
      )}{' '}
      <span class="meta">
        <When lang={lang} at={n.at.toISOString()} />
      </span>
    </li>
  );
}

/** A reader's notifications, newest first, the new ones marked; and the private address of their Atom feed. */
export function NotificationsPage(props: { lang: Lang; items: ShownNotification[]; feedUrl: string }) {
  const { lang } = props;
  return (
    <Layout lang={lang} title={t(lang, 'site.notifications.title')} section="account" path="/me/notifications">
      <h1>{t(lang, 'site.notifications.title')}</h1>
      {props.items.length === 0 ? (
        <p>{t(lang, 'site.notifications.empty')}</p>
      ) : (
        <ol class="list notifications">
          {props.items.map((n) => (
            <Item lang={lang} n={n} />
          ))}
        </ol>
      )}
      <section aria-labelledby="feed">
        <h2 id="feed">Atom</h2>
        <p>{t(lang, 'site.notifications.feed')}</p>
        <p>
          <input type="text" readOnly value={props.feedUrl} aria-label={t(lang, 'site.notifications.feedTitle')} class="wide" />
        </p>
        <PostForm action="/me/notifications/feed" lang={lang} back={href('/me/notifications', lang)}>
          <button type="submit">{t(lang, 'site.notifications.renew')}</button>
        </PostForm>
      </section>
    </Layout>
  );
}
