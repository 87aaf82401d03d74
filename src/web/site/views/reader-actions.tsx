import { t, type Lang } from '../../words/index.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import { formatNumber, roomName } from '../format.js';
import { href } from '../links.js';
import type { StoryReaderState } from '../reader-state.js';
import { useVisitor } from '../visitor.js';
import { PostForm } from './forms.js';
import { Badge, ClaimRef, Sentence, When } from './parts.js';
import { ProofFields } from './proof-fields.js';

const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH'] as const;

/** The flag form: a severity, the story or one of its claims, why, and the proof a challenge asks for. */
function FlagForm(props: { lang: Lang; story: StoryResponse; base: string; back: string }) {
  const { lang, story } = props;
  return (
    <PostForm action={`${props.base}/flag`} lang={lang} back={props.back}>
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
        <ProofFields lang={lang} action="flag_high_severity" label={t(lang, 'account.flag.prove')} />
        <button type="submit">{t(lang, 'account.flag.submit')}</button>
      </fieldset>
    </PostForm>
  );
}

/** The reader's own flags on this story: what they flagged (the story or a claim), how severe, when. */
function OwnFlags(props: { lang: Lang; story: StoryResponse; flags: StoryReaderState['flags'] }) {
  const { lang } = props;
  return (
    <div class="own-state" id="my-flags">
      <p>
        <strong>{t(lang, 'account.flag.yours')}</strong>
      </p>
      <ul class="list">
        {props.flags.map((f) => (
          <li>
            <Badge kind={f.severity} label={t(lang, `site.severity.${f.severity}`)} />{' '}
            {f.claimId ? (
              <Sentence
                text={t(lang, 'site.flag.claim')}
                parts={{ claim: <ClaimRef lang={lang} claims={props.story.claims} id={f.claimId} storyPath="" /> }}
              />
            ) : (
              t(lang, 'account.flag.wholeStory')
            )}
            {' · '}
            <When lang={lang} at={f.createdAt} />
          </li>
        ))}
      </ul>
      <p class="meta">
        <a href={href('/me/activity', lang)}>{t(lang, 'account.activity.link')}</a>
      </p>
    </div>
  );
}

/**
 * What a reader can do on a story: comment, reward vote, flag, bookmark, follow its room. Anonymous (and so
 * cached) pages show a login link instead; the forms appear on the logged-in reader's own, uncached page, and
 * what the reader already did shows in their place: "Bookmarked" and "Following" with the way back, their vote
 * and its weight, their flags.
 */
export function ReaderActions(props: { lang: Lang; story: StoryResponse; mine: StoryReaderState | null }) {
  const { lang, story, mine } = props;
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
  const flags = mine?.flags ?? [];
  return (
    <section class="panel actions" aria-labelledby="take-part">
      <h2 id="take-part">{t(lang, 'account.actions')}</h2>
      <div class="inline-forms">
        {mine?.bookmarked ? (
          <PostForm action={`${base}/bookmark/remove`} lang={lang} back={back} class="own-state">
            <span>{t(lang, 'account.bookmark.state')}</span> · <button type="submit">{t(lang, 'account.bookmark.undo')}</button>
          </PostForm>
        ) : (
          <PostForm action={`${base}/bookmark`} lang={lang} back={back}>
            <button type="submit">{t(lang, 'account.bookmark.add')}</button>
          </PostForm>
        )}
        {mine?.followsRoom ? (
          <PostForm action="/me/topics/remove" lang={lang} back={back} class="own-state">
            <input type="hidden" name="topic" value={story.room} />
            <input type="hidden" name="kind" value="ROOM" />
            <span>{t(lang, 'account.follow.state', { room: roomName(lang, story.room) })}</span> ·{' '}
            <button type="submit">{t(lang, 'account.follow.undo')}</button>
          </PostForm>
        ) : (
          <PostForm action="/me/topics" lang={lang} back={back}>
            <input type="hidden" name="topic" value={story.room} />
            <input type="hidden" name="kind" value="ROOM" />
            <button type="submit">{t(lang, 'account.follow.room', { room: roomName(lang, story.room) })}</button>
          </PostForm>
        )}
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
      {mine?.vote ? (
        <div class="own-state" id="my-vote">
          <h3>{t(lang, 'account.vote.legend')}</h3>
          <p>
            <strong>
              {t(lang, 'account.vote.yours', {
                direction: t(lang, mine.vote.vote === 'UP' ? 'account.vote.up' : 'account.vote.down'),
                weight: formatNumber(lang, mine.vote.weight),
              })}
            </strong>{' '}
            <span class="meta">
              <When lang={lang} at={mine.vote.changedAt ?? mine.vote.createdAt} />
              {mine.vote.changedAt ? ` · ${t(lang, 'account.vote.changedAt')}` : ''}
            </span>
          </p>
          {story.rewardWindow.active ? (
            <details class="vote-change">
              <summary>{t(lang, 'account.vote.change')}</summary>
              <PostForm action={`${base}/vote/change`} lang={lang} back={`${back}#my-vote`}>
                <p>{t(lang, 'account.vote.changeText')}</p>
                <ProofFields lang={lang} action={`reward:${story.id}`} label={t(lang, 'account.vote.prove')} />
                {/* the other direction first: a change of mind is one click after "Change"; the same one keeps the
                    direction and can raise the weight with a proof */}
                {(mine.vote.vote === 'UP' ? (['DOWN', 'UP'] as const) : (['UP', 'DOWN'] as const)).map((direction) => (
                  <>
                    <button type="submit" name="vote" value={direction}>
                      {t(lang, direction === 'UP' ? 'account.vote.up' : 'account.vote.down')}
                    </button>{' '}
                  </>
                ))}
              </PostForm>
            </details>
          ) : null}
        </div>
      ) : story.rewardWindow.active ? (
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
      {flags.length === 0 ? (
        <FlagForm lang={lang} story={story} base={base} back={back} />
      ) : (
        <>
          <OwnFlags lang={lang} story={story} flags={flags} />
          <details>
            <summary>{t(lang, 'account.flag.another')}</summary>
            <FlagForm lang={lang} story={story} base={base} back={back} />
          </details>
        </>
      )}
    </section>
  );
}
