import { t } from '../../words/index.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import type { FieldDiff } from '../../site/diff.js';
import { DiffRuns } from '../../site/views/versions.js';
import { enc, ModerationFrame, storyPage, type Frame } from './moderation-frame.js';
import type { CorrectionDraft } from './moderation-story.js';
import { ActionForm, Field } from './parts.js';

/**
 * The correction as a diff of the current packet and the one it would make, with the form that sends it. The
 * page has its own address (the draft kept in the session): a reload shows it again.
 */
export function CorrectionPreviewPage(props: Frame & { story: StoryResponse; draft: CorrectionDraft; draftId: string; diff: FieldDiff[] }) {
  const { lang, story, draft } = props;
  const path = `/console/moderation/stories/${enc(story.id)}`;
  const back = storyPage(story.id, lang);
  return (
    <ModerationFrame
      {...props}
      title={t(lang, 'console.moderation.previewTitle', { title: story.title })}
      here="stories"
      path={`${path}/correction/preview`}
      query={{ draft: props.draftId }}
    >
      <p>
        <a href={back}>{t(lang, 'console.moderation.backToStory')}</a>
      </p>
      <p class="meta">{t(lang, 'console.moderation.diffLegend')}</p>
      {props.diff.map((field) => (
        <section aria-labelledby={`field-${field.field}`}>
          <h2 id={`field-${field.field}`}>{t(lang, `console.moderation.field.${field.field}`)}</h2>
          {field.changed ? (
            <div lang={story.lang}>
              <DiffRuns diff={field} />
            </div>
          ) : (
            <p>{t(lang, 'console.moderation.unchanged')}</p>
          )}
        </section>
      ))}
      <h2>{t(lang, 'console.moderation.note')}</h2>
      <p lang={story.lang}>{draft.note}</p>
      <ActionForm lang={lang} action={`${path}/correction`} back={back} submit={t(lang, 'console.moderation.send')}>
        <input type="hidden" name="draft" value={props.draftId} />
      </ActionForm>
      <p>
        <a href={`${storyPage(story.id, lang, { draft: props.draftId })}#correct`}>{t(lang, 'console.moderation.editAgain')}</a>
      </p>
    </ModerationFrame>
  );
}

/** The retraction asked once more, at its own address: what it does, and that it cannot be undone. */
export function RetractionConfirmPage(props: Frame & { story: StoryResponse; reason: string }) {
  const { lang, story } = props;
  const path = `/console/moderation/stories/${enc(story.id)}`;
  const back = storyPage(story.id, lang);
  return (
    <ModerationFrame
      {...props}
      title={t(lang, 'console.moderation.retractTitle', { title: story.title })}
      here="stories"
      path={`${path}/retraction`}
    >
      <p class="tag-bad">{t(lang, 'console.moderation.retractEffect')}</p>
      <dl class="facts">
        <dt>{t(lang, 'console.moderation.story')}</dt>
        <dd>
          <code>{story.id}</code> · <span lang={story.lang}>{story.title}</span>
        </dd>
      </dl>
      <ActionForm lang={lang} action={`${path}/retraction`} back={back} submit={t(lang, 'console.moderation.retractSend')} danger>
        <Field id="r-reason" label={t(lang, 'console.reason')}>
          <input id="r-reason" name="reason" required maxLength={2000} value={props.reason} />
        </Field>
      </ActionForm>
      <p>
        <a href={back}>{t(lang, 'console.moderation.backToStory')}</a>
      </p>
    </ModerationFrame>
  );
}
