import { t, type Lang } from '../../words/index.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import { href } from '../links.js';
import { useVisitor } from '../visitor.js';
import { PostForm } from './forms.js';
import { ProofFields } from './proof-fields.js';

const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH'] as const;

/**
 * What a reader can do on a story: comment, reward vote, flag, bookmark, follow its room. Anonymous (and so
 * cached) pages show a login link instead; the forms appear on the logged-in reader's own, uncached page.
 */
export function ReaderActions(props: { lang: Lang; story: StoryResponse }) {
  const { lang, story } = props;
  const visitor = useVisitor();
  const base = `/stories/${encodeURIComponent(story.id)}`;
  const back = href(base, lang);
  if (!visitor.reader) {
    return (
      <section class="panel actions" aria-labelledby="take-part">
        <h2 id="take-part">{t(lang, 'account.actions')}</h2>
        <p>
          <a href={href('/login', lang, { next: back })}>{t(lang, 'account.actions.loginFirst')}</a>
        </p>
      </section>
    );
  }
  return (
    <section class="panel actions" aria-labelledby="take-part">
      <h2 id="take-part">{t(lang, 'account.actions')}</h2>
      <div class="inline-forms">
        <PostForm action={`${base}/bookmark`} lang={lang} back={back}>
          <button type="submit">{t(lang, 'account.bookmark.add')}</button>
        </PostForm>
        <PostForm action="/me/topics" lang={lang} back={back}>
          <input type="hidden" name="topic" value={story.room} />
          <input type="hidden" name="kind" value="ROOM" />
          <button type="submit">{t(lang, 'account.follow.room', { room: story.room })}</button>
        </PostForm>
      </div>
      {visitor.reader.name ? null : (
        <p class="meta">
          <a href={href('/me/name', lang, { next: back })}>{t(lang, 'account.name.needed')}</a>
        </p>
      )}
      <PostForm action={`${base}/comment`} lang={lang} back={back}>
        <label for="comment-body">{t(lang, 'account.comment.label')}</label>
        <textarea id="comment-body" name="body" rows={4} maxLength={5000} required />
        <button type="submit">{t(lang, 'account.comment.submit')}</button>
      </PostForm>
      {story.rewardWindow.active ? (
        <PostForm action={`${base}/vote`} lang={lang} back={back}>
          <fieldset>
            <legend>{t(lang, 'account.vote.legend')}</legend>
            <p>{t(lang, 'account.vote.text')}</p>
            <ProofFields lang={lang} action={`reward:${story.id}`} label={t(lang, 'account.vote.prove')} />
            <button type="submit" name="vote" value="UP">
              {t(lang, 'account.vote.up')}
            </button>{' '}
            <button type="submit" name="vote" value="DOWN">
              {t(lang, 'account.vote.down')}
            </button>
          </fieldset>
        </PostForm>
      ) : null}
      <PostForm action={`${base}/flag`} lang={lang} back={back}>
        <fieldset>
          <legend>{t(lang, 'account.flag.legend')}</legend>
          <label for="flag-severity">{t(lang, 'account.flag.severity')}</label>
          <select id="flag-severity" name="severity">
            {SEVERITIES.map((s) => (
              <option value={s}>{t(lang, `site.severity.${s}`)}</option>
            ))}
          </select>
          <label for="flag-claim">{t(lang, 'account.flag.claim')}</label>
          <select id="flag-claim" name="claimId">
            <option value="">{t(lang, 'account.flag.wholeStory')}</option>
            {story.claims.map((claim) => (
              <option value={claim.id}>{claim.text.length > 80 ? `${claim.text.slice(0, 79)}…` : claim.text}</option>
            ))}
          </select>
          <label for="flag-reason">{t(lang, 'account.flag.reason')}</label>
          <textarea id="flag-reason" name="reason" rows={3} maxLength={2000} required />
          <p class="meta">{t(lang, 'account.flag.highNote')}</p>
          <ProofFields lang={lang} action="flag_high_severity" label={t(lang, 'account.vote.prove')} />
          <button type="submit">{t(lang, 'account.flag.submit')}</button>
        </fieldset>
      </PostForm>
    </section>
  );
}
