import { t, type Lang } from '../../words/index.js';
import type { LegalHold } from '../../../newsroom/moderation/schemas.js';
import type { VersionsResponse } from '../../../newsroom/stories/evidence-schemas.js';
import type { StoryCard, StoryResponse } from '../../../newsroom/stories/schemas.js';
import { href, storyHref } from '../../site/links.js';
import { PostForm } from '../../site/views/forms.js';
import { deliveriesHref, enc, ModerationFrame, storyPage, type Frame } from './moderation-frame.js';
import { findingHref } from './integrity.js';
import { HoldRelease, PlaceHold } from './moderation-holds.js';
import { consoleFlashText, Field, When } from './parts.js';

type Packet = VersionsResponse['versions'][number]['packet'];

/** The correction form's fields: the packet's texts, its claims one by one (id empty for a new one), its sources as JSON, the note. */
export interface CorrectionDraft {
  title: string;
  summary: string;
  body: string;
  claims: { id: string; text: string }[];
  sources: string;
  note: string;
}

/** The collusion finding whose cluster discount took weight off a story's attestations (its number on the analysis's page). */
export interface DiscountFinding {
  analysisId: string;
  clusterId: string;
  number: number;
  attestations: number;
}

/** Why a story cannot be corrected or retracted now, said before any form is filled: a legal hold, or a retraction. */
export const blockerOf = (story: Pick<StoryResponse, 'reviewStatus'>, holds: readonly LegalHold[]) =>
  holds.length ? ('HOLD' as const) : story.reviewStatus === 'RETRACTED' ? ('RETRACTED' as const) : null;

/** A story found by words of its title (the public search): the box, on the queue's page and the stories' page. */
export function StorySearch(props: { lang: Lang; q?: string | null }) {
  const { lang } = props;
  return (
    <form method="get" action="/console/moderation/stories" class="console-form" role="search">
      <input type="hidden" name="lang" value={lang} />
      <Field id="find-title" label={t(lang, 'console.moderation.findTitle')}>
        <input id="find-title" name="q" type="search" required maxLength={300} value={props.q ?? ''} />
      </Field>
      <button type="submit">{t(lang, 'console.moderation.find')}</button>
    </form>
  );
}

export function StoryFindPage(props: Frame & { q: string | null; found: StoryCard[] | null }) {
  const { lang, found } = props;
  return (
    <ModerationFrame {...props} title={t(lang, 'console.moderation.section.stories')} here="stories" path="/console/moderation/stories">
      <p>{t(lang, 'console.moderation.storiesText')}</p>
      <StorySearch lang={lang} q={props.q} />
      {found ? (
        <section aria-labelledby="found">
          <h2 id="found">
            {found.length
              ? t(lang, 'console.moderation.found', { count: found.length, q: props.q ?? '' })
              : t(lang, 'console.moderation.foundNone', { q: props.q ?? '' })}
          </h2>
          <ul class="list found">
            {found.map((story) => (
              <li>
                <strong lang={story.lang}>{story.title}</strong>{' '}
                <span class="meta">
                  {story.publicationStage} · {story.reviewStatus}
                </span>{' '}
                {story.reviewStatus === 'RETRACTED' ? (
                  <span class="tag-bad">{t(lang, 'console.moderation.isRetractedShort')}</span>
                ) : (
                  <>
                    <a
                      href={`${storyPage(story.id, lang)}#correct`}
                      aria-label={t(lang, 'console.moderation.correctStory', { title: story.title })}
                    >
                      {t(lang, 'console.moderation.correctLink')}
                    </a>{' '}
                    ·{' '}
                    <a
                      href={href(`/console/moderation/stories/${enc(story.id)}/retraction`, lang)}
                      aria-label={t(lang, 'console.moderation.retractStory', { title: story.title })}
                    >
                      {t(lang, 'console.moderation.retractLink')}
                    </a>
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <details>
        <summary>{t(lang, 'console.moderation.byId')}</summary>
        <form method="get" action="/console/moderation/stories" class="console-form">
          <input type="hidden" name="lang" value={lang} />
          <Field id="find-story" label={t(lang, 'console.moderation.storyId')}>
            <input id="find-story" name="id" required maxLength={64} pattern="[A-Za-z0-9_\-]+" />
          </Field>
          <button type="submit">{t(lang, 'console.moderation.open')}</button>
        </form>
      </details>
    </ModerationFrame>
  );
}

/** The claims, one row each (its text; ticked, removed), and two empty rows for new ones. */
function ClaimRows(props: { lang: Lang; claims: CorrectionDraft['claims'] }) {
  const { lang } = props;
  const rows = [...props.claims, { id: '', text: '' }, { id: '', text: '' }];
  return (
    <fieldset class="claims">
      <legend>{t(lang, 'console.moderation.field.claims')}</legend>
      <p class="meta" id="claims-hint">
        {t(lang, 'console.moderation.claimsRowsHint')}
      </p>
      {rows.map((claim, i) => {
        const field = `claim-${i}`;
        const isNew = !claim.id;
        return (
          <div class={isNew ? 'claim new' : 'claim'}>
            <input type="hidden" name="claimId" value={claim.id} />
            <Field
              id={field}
              label={isNew ? t(lang, 'console.moderation.claimNew') : t(lang, 'console.moderation.claimN', { n: i + 1, id: claim.id })}
            >
              <textarea id={field} name="claimText" rows={2} maxLength={2000} aria-describedby="claims-hint">
                {claim.text}
              </textarea>
            </Field>
            {isNew ? null : (
              <p class="field check">
                <input type="checkbox" id={`${field}-remove`} name="claimRemove" value={String(i)} />
                <label for={`${field}-remove`}>{t(lang, 'console.moderation.claimRemove', { n: i + 1 })}</label>
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

/** The correction form's fields. */
function DraftFields(props: { lang: Lang; draft: CorrectionDraft }) {
  const { lang, draft } = props;
  return (
    <>
      <Field id="c-title" label={t(lang, 'console.moderation.field.title')}>
        <input id="c-title" name="title" value={draft.title} maxLength={300} />
      </Field>
      <Field id="c-summary" label={t(lang, 'console.moderation.field.summary')}>
        <textarea id="c-summary" name="summary" maxLength={2000} rows={3}>
          {draft.summary}
        </textarea>
      </Field>
      <Field id="c-body" label={t(lang, 'console.moderation.field.body')}>
        <textarea id="c-body" name="body" maxLength={100_000} rows={12}>
          {draft.body}
        </textarea>
      </Field>
      <ClaimRows lang={lang} claims={draft.claims} />
      <Field id="c-sources" label={t(lang, 'console.moderation.field.sources')} hint={t(lang, 'console.moderation.sourcesHint')}>
        <textarea id="c-sources" name="sources" rows={6} class="code" aria-describedby="c-sources-hint">
          {draft.sources}
        </textarea>
      </Field>
      <Field id="c-note" label={t(lang, 'console.moderation.note')} hint={t(lang, 'console.moderation.noteHint')}>
        <textarea id="c-note" name="note" maxLength={2000} rows={3} required aria-describedby="c-note-hint">
          {draft.note}
        </textarea>
      </Field>
    </>
  );
}

export function StoryModerationPage(
  props: Frame & {
    story: StoryResponse;
    versions: VersionsResponse;
    packet: Packet;
    holds: LegalHold[];
    draft: CorrectionDraft;
    refused: { code: string; details: string[] } | null;
    /** The webhook event of the correction or retraction just made (its deliveries are linked). */
    event: string | null;
    /** The collusion finding that discounted the attestations in the story's latest consensus, if one did. */
    finding: DiscountFinding | null;
  },
) {
  const { lang, story } = props;
  const path = `/console/moderation/stories/${enc(story.id)}`;
  const back = storyPage(story.id, lang);
  const blocker = blockerOf(story, props.holds);
  return (
    <ModerationFrame {...props} title={story.title} here="stories" path={path}>
      <p>
        <a href={storyHref(story.id, lang)}>{t(lang, 'console.moderation.publicPage')}</a> ·{' '}
        <a href={href(`/stories/${enc(story.id)}/versions`, lang)}>{t(lang, 'console.moderation.versionsPage')}</a>
      </p>
      {props.event ? (
        <p class="tag-ok">
          <a href={deliveriesHref(lang, { event: props.event })}>{t(lang, 'console.moderation.eventDeliveries', { event: props.event })}</a>
        </p>
      ) : null}
      {blocker === 'HOLD' ? (
        <div role="alert" class="flash refused">
          <p>{t(lang, 'console.moderation.heldNotice')}</p>
        </div>
      ) : null}
      {blocker === 'RETRACTED' ? (
        <div role="alert" class="flash refused">
          <p>{t(lang, 'console.moderation.isRetracted')}</p>
        </div>
      ) : null}
      {props.refused && blocker ? (
        <div role="alert" class="flash refused">
          <p>{consoleFlashText(lang, { kind: 'refused', message: props.refused.code })}</p>
        </div>
      ) : null}
      <dl class="facts">
        <dt>{t(lang, 'console.moderation.story')}</dt>
        <dd>
          <code>{story.id}</code>
        </dd>
        <dt>{t(lang, 'console.moderation.stage')}</dt>
        <dd>
          {story.publicationStage} · {story.reviewStatus}
        </dd>
        <dt>{t(lang, 'console.moderation.version')}</dt>
        <dd>
          {story.version} · <code class="hash">{story.packetHash}</code>
        </dd>
      </dl>
      {props.finding ? (
        <p class="tag-warn">
          <a href={findingHref(props.finding.analysisId, props.finding.clusterId, lang)}>
            {t(lang, 'console.moderation.discountFinding', { n: props.finding.number, count: props.finding.attestations })}
          </a>
        </p>
      ) : null}
      <h2>{t(lang, 'console.moderation.notices')}</h2>
      {props.versions.versions.some((v) => v.notices.length) ? (
        <ul class="list">
          {props.versions.versions.flatMap((v) =>
            v.notices.map((n) => (
              <li>
                {t(lang, `console.moderation.notice.${n.kind}`, { version: v.version, note: n.note })} <When lang={lang} at={n.createdAt} />
              </li>
            )),
          )}
        </ul>
      ) : (
        <p>{t(lang, 'console.moderation.noNotices')}</p>
      )}
      <h2>{t(lang, 'console.moderation.section.holds')}</h2>
      {props.holds.length ? (
        <ul class="list">
          {props.holds.map((hold) => (
            <li>
              <p class="tag-warn">
                {t(lang, 'console.moderation.activeHold', { id: hold.id, reason: hold.reason })} <When lang={lang} at={hold.placedAt} />
              </p>
              <HoldRelease lang={lang} hold={hold} back={back} />
            </li>
          ))}
        </ul>
      ) : (
        <>
          <p>{t(lang, 'console.moderation.noHold')}</p>
          <PlaceHold lang={lang} back={back} storyId={story.id} />
        </>
      )}
      {blocker ? null : (
        <>
          <section aria-labelledby="correct">
            <h2 id="correct">{t(lang, 'console.moderation.correct')}</h2>
            <p>{t(lang, 'console.moderation.correctText')}</p>
            {props.refused ? (
              <div role="alert" class="flash refused">
                <p>{consoleFlashText(lang, { kind: 'refused', message: props.refused.code })}</p>
                {props.refused.details.length ? (
                  <ul>
                    {props.refused.details.map((d) => (
                      <li>
                        <code>{d}</code>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </div>
            ) : null}
            <PostForm action={`${path}/correction/preview`} lang={lang} back={back} class="console-form stacked">
              <DraftFields lang={lang} draft={props.draft} />
              <button type="submit">{t(lang, 'console.moderation.preview')}</button>
            </PostForm>
          </section>
          <section aria-labelledby="retract">
            <h2 id="retract">{t(lang, 'console.moderation.retract')}</h2>
            <p>{t(lang, 'console.moderation.retractText')}</p>
            <form method="get" action={`${path}/retraction`} class="console-form">
              <input type="hidden" name="lang" value={lang} />
              <Field id="r-reason" label={t(lang, 'console.reason')}>
                <input id="r-reason" name="reason" required maxLength={2000} />
              </Field>
              <button type="submit" class="danger">
                {t(lang, 'console.moderation.retractNext')}
              </button>
            </form>
          </section>
        </>
      )}
    </ModerationFrame>
  );
}
