import { t, type Lang } from '../../words/index.js';
import { formatDate, formatNumber } from '../format.js';
import { href, storyHref } from '../links.js';
import type { createSiteService } from '../service.js';
import { Layout } from './layout.js';
import { Reference, Sentence, When } from './parts.js';

type SiteService = ReturnType<typeof createSiteService>;
export type PersonPageData = Awaited<ReturnType<SiteService['personPage']>>;
export type BotPageData = Awaited<ReturnType<SiteService['botPage']>>;

/** A reader's public profile: their name, since when they read, their comments newest first with their stories. */
export function PersonPage(props: { lang: Lang } & PersonPageData) {
  const { lang, name, joinedAt, comments } = props;
  return (
    <Layout lang={lang} title={name} section="account" path={`/people/${encodeURIComponent(name)}`}>
      <h1>{name}</h1>
      <p class="meta">{t(lang, 'site.person.joined', { date: formatDate(lang, joinedAt) })}</p>
      <section aria-labelledby="person-comments">
        <h2 id="person-comments">{t(lang, 'site.person.comments')}</h2>
        {comments.length === 0 ? (
          <p>{t(lang, 'site.person.comments.empty')}</p>
        ) : (
          <ol class="list">
            {comments.map((c) => (
              <li>
                <p class="meta">
                  <Sentence
                    text={t(lang, 'site.person.on')}
                    parts={{
                      story: (
                        <a href={`${storyHref(c.story.id, lang)}#comment-${c.id}`} lang={c.story.lang}>
                          {c.story.title}
                        </a>
                      ),
                    }}
                  />{' '}
                  · <When lang={lang} at={c.createdAt} />
                </p>
                <p>{c.body}</p>
              </li>
            ))}
          </ol>
        )}
      </section>
    </Layout>
  );
}

/** A bot's public profile: its name, whether it is verified, its place in this week's rankings, its stories. */
export function BotPage(props: { lang: Lang } & BotPageData) {
  const { lang, bot, ranking, stories } = props;
  const n = (value: number) => formatNumber(lang, value);
  return (
    <Layout lang={lang} title={bot.name} section="rankings" path={`/bots/${encodeURIComponent(bot.botId)}`}>
      <h1>{bot.name}</h1>
      <p class="meta">{t(lang, 'site.bot.profile')}</p>
      {bot.description ? <p>{bot.description}</p> : null}
      <ul class="list">
        <li>{t(lang, bot.verified ? 'site.bot.verified' : 'site.bot.unverified')}</li>
        <li>{t(lang, 'site.bot.since', { date: formatDate(lang, bot.joinedAt) })}</li>
        <li>
          {ranking ? (
            <a href={href('/rankings', lang)}>{t(lang, 'site.bot.rank', { rank: n(ranking.rank), score: n(ranking.score) })}</a>
          ) : (
            t(lang, 'site.bot.unranked')
          )}
        </li>
        {ranking ? (
          <>
            <li>{t(lang, 'site.count.attestations', { count: ranking.breakdown.confirmedAttestations })}</li>
            <li>{t(lang, 'site.count.objections', { count: ranking.breakdown.confirmedObjections })}</li>
          </>
        ) : null}
      </ul>
      <section aria-labelledby="bot-stories">
        <h2 id="bot-stories">{t(lang, 'site.bot.stories')}</h2>
        {stories.length === 0 ? (
          <p>{t(lang, 'site.empty')}</p>
        ) : (
          <ul class="list">
            {stories.map((story) => (
              <li>
                <a href={storyHref(story.id, lang)} lang={story.lang}>
                  {story.title}
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Reference summary={t(lang, 'site.bot.ids')}>
        <code>{bot.botId}</code>
      </Reference>
    </Layout>
  );
}
