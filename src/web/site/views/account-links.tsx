import { t, type Lang } from '../../words/index.js';
import { href } from '../links.js';
import { useVisitor } from '../visitor.js';
import { PostForm } from './forms.js';

/**
 * The masthead's account links: "Log in" (back to this page afterwards) for everyone on a public page; the
 * reader's "My newsroom", "My activity", their notifications (with how many are new) and "Log out" on their own
 * pages; a console user's link to the console,
 * with how many things wait for them there ("Newsroom console (3)").
 */
export function AccountLinks(props: { lang: Lang; path: string; query?: Record<string, string | number | undefined> }) {
  const { lang } = props;
  const { reader, staff, waiting, unread } = useVisitor();
  const site = t(lang, 'module.home.title');
  const here = href(props.path, lang, props.query);
  return (
    <nav class="account" aria-label={t(lang, 'account.menu')}>
      {reader ? (
        <ul>
          <li>
            <a href={href('/me', lang)}>{t(lang, 'account.me')}</a>
          </li>
          <li>
            <a href={href('/me/activity', lang)}>{t(lang, 'account.activity.title')}</a>
          </li>
          <li>
            <a href={href('/me/notifications', lang)} class={unread ? 'waiting' : undefined}>
              {unread ? t(lang, 'site.notifications.linkNew', { count: unread }) : t(lang, 'site.notifications.link')}
            </a>
          </li>
          {staff ? (
            <li>
              <a href={href('/console', lang)} class={waiting ? 'waiting' : undefined}>
                {waiting ? t(lang, 'console.titleWaiting', { site, count: waiting }) : t(lang, 'console.title', { site })}
              </a>
            </li>
          ) : null}
          <li>
            <PostForm action="/logout" lang={lang} back={href('/', lang)} class="inline">
              <button type="submit" class="link">
                {t(lang, 'account.logout')}
              </button>
            </PostForm>
          </li>
        </ul>
      ) : (
        <ul>
          <li>
            <a href={href('/login', lang, props.path === '/login' ? {} : { next: here })}>{t(lang, 'account.login')}</a>
          </li>
        </ul>
      )}
    </nav>
  );
}
