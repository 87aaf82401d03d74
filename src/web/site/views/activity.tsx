import { t, type Lang } from '../../words/index.js';
import type { FlagOutcome } from '../../../newsroom/flags/service.js';
import type { StoryTitle } from '../../../newsroom/stories/readable-titles.js';
import { formatNumber } from '../format.js';
import { href, storyHref } from '../links.js';
import { PostForm } from './forms.js';
import { Layout } from './layout.js';
import { Badge, Sentence, When } from './parts.js';

export interface ActivityProps {
  lang: Lang;
  comments: { id: string; body: string; createdAt: string; story: StoryTitle }[];
  votes: { id: string; vote: 'UP' | 'DOWN'; weight: number; createdAt: string; story: StoryTitle }[];
  flags: {
    id: string;
    severity: 'LOW' | 'MEDIUM' | 'HIGH';
    claimId: string | null;
    reason: string;
    challenge: boolean;
    createdAt: string;
    story: StoryTitle;
    outcome: FlagOutcome;
  }[];
}

/** A story a reader acted on, as a link in the story's own language. */
function StoryLink(props: { lang: Lang; story: StoryTitle; anchor?: string }) {
  return (
    <a href={`${storyHref(props.story.id, props.lang)}${props.anchor ?? ''}`} lang={props.story.lang}>
      {props.story.title}
    </a>
  );
}

/** "On <story>", the story linked. */
const On = (props: { lang: Lang; story: StoryTitle; anchor?: string }) => (
  <Sentence text={t(props.lang, 'account.activity.on')} parts={{ story: <StoryLink {...props} /> }} />
);

/** What became of a flag: what an editor did to the story since, or pending. */
function Outcome(props: { lang: Lang; outcome: FlagOutcome }) {
  const { lang, outcome } = props;
  if (outcome.state === 'OPEN') return <p class="outcome">{t(lang, 'account.activity.flag.open')}</p>;
  const key = outcome.state === 'RETRACTED' ? 'account.activity.flag.retracted' : 'account.activity.flag.corrected';
  return (
    <p class="outcome">
      <Badge kind={outcome.state} label={t(lang, outcome.state === 'RETRACTED' ? 'site.card.retracted' : 'site.card.corrected')} />{' '}
      {t(lang, key, { note: outcome.note })} <When lang={lang} at={outcome.at} />
    </p>
  );
}

/** "My activity": the reader's comments, reward votes and flags (with what became of each), newest first. */
export function ActivityPage(props: ActivityProps) {
  const { lang } = props;
  const n = (value: number) => formatNumber(lang, value);
  return (
    <Layout lang={lang} title={t(lang, 'account.activity.title')} section="account" path="/me/activity">
      <h1>{t(lang, 'account.activity.title')}</h1>
      <p>{t(lang, 'account.activity.intro')}</p>
      <section aria-labelledby="my-comments">
        <h2 id="my-comments">{t(lang, 'account.activity.comments')}</h2>
        {props.comments.length === 0 ? (
          <p>{t(lang, 'account.activity.comments.empty')}</p>
        ) : (
          <ol class="list">
            {props.comments.map((c) => (
              <li>
                <p class="meta">
                  <On lang={lang} story={c.story} /> · <When lang={lang} at={c.createdAt} /> ·{' '}
                  <a href={`${storyHref(c.story.id, lang)}#comment-${c.id}`}>{t(lang, 'account.activity.readComment')}</a>
                </p>
                <p>{c.body}</p>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="my-votes">
        <h2 id="my-votes">{t(lang, 'account.activity.votes')}</h2>
        {props.votes.length === 0 ? (
          <p>{t(lang, 'account.activity.votes.empty')}</p>
        ) : (
          <ol class="list">
            {props.votes.map((v) => (
              <li>
                <StoryLink lang={lang} story={v.story} />
                <p class="meta">
                  {t(lang, 'account.activity.vote', {
                    direction: t(lang, v.vote === 'UP' ? 'account.vote.up' : 'account.vote.down'),
                    weight: n(v.weight),
                  })}{' '}
                  · <When lang={lang} at={v.createdAt} />
                </p>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="my-flags">
        <h2 id="my-flags">{t(lang, 'account.activity.flags')}</h2>
        <p class="meta">{t(lang, 'account.activity.flags.note')}</p>
        {props.flags.length === 0 ? (
          <p>{t(lang, 'account.activity.flags.empty')}</p>
        ) : (
          <ol class="list">
            {props.flags.map((f) => (
              <li>
                <p class="meta">
                  <Badge kind={f.severity} label={t(lang, `site.severity.${f.severity}`)} />{' '}
                  {f.challenge ? `${t(lang, 'site.flag.challenge')} · ` : ''}
                  <On lang={lang} story={f.story} anchor={f.claimId ? `#claim-${f.claimId}` : ''} /> · <When lang={lang} at={f.createdAt} />
                </p>
                <p>{f.reason}</p>
                <Outcome lang={lang} outcome={f.outcome} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </Layout>
  );
}

/** The confirmation step before the reading history is cleared: what goes, what stays, then yes or no. */
export function HistoryClearPage(props: { lang: Lang; count: number }) {
  const { lang } = props;
  const back = href('/me', lang);
  return (
    <Layout lang={lang} title={t(lang, 'account.history.title')} section="account" path="/me/history/clear">
      <h1>{t(lang, 'account.history.title')}</h1>
      <p>
        <strong>{t(lang, 'account.history.count', { count: props.count })}</strong>
      </p>
      <p>{t(lang, 'account.history.deletes')}</p>
      <p>{t(lang, 'account.history.keeps')}</p>
      <PostForm action="/me/history/clear" lang={lang} back={back} class="inline">
        <input type="hidden" name="confirm" value="1" />
        <button type="submit">{t(lang, 'account.history.confirm')}</button>
      </PostForm>{' '}
      <a class="button" href={back}>
        {t(lang, 'account.history.cancel')}
      </a>
    </Layout>
  );
}
