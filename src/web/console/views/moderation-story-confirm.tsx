import { t } from '../../words/index.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import type { FieldDiff } from '../../site/diff.js';
import { PostForm } from '../../site/views/forms.js';
import { DiffRuns } from '../../site/views/versions.js';
import { enc, ModerationFrame, storyPage, type Frame } from './moderation-frame.js';
import type { CorrectionDraft } from './moderation-story.js';
import { ActionForm } from './parts.js';

function HiddenDraft(props: { draft: CorrectionDraft }) {
  return (
    <>
      {(Object.keys(props.draft) as (keyof CorrectionDraft)[]).map((name) => (
        <input type="hidden" name={name} value={props.draft[name]} />
      ))}
    </>
  );
}

/** The correction as a diff of the current packet and the one it would make, with the form that sends it. */
export function CorrectionPreviewPage(props: Frame & { story: StoryResponse; draft: CorrectionDraft; diff: FieldDiff[] }) {
  const { lang, story, draft } = props;
  const path = `/console/moderation/stories/${enc(story.id)}`;
  const back = storyPage(story.id, lang);
  return (
    <ModerationFrame {...props} title={t(lang, 'console.moderation.previewTitle', { title: story.title })} here="stories" path={path}>
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
      <PostForm action={`${path}/correction`} lang={lang} back={back} class="console-form">
        <HiddenDraft draft={draft} />
        <button type="submit">{t(lang, 'console.moderation.send')}</button>
      </PostForm>
      <PostForm action={`${path}/correction/edit`} lang={lang} back={back} class="console-form">
        <HiddenDraft draft={draft} />
        <button type="submit" class="link">
          {t(lang, 'console.moderation.editAgain')}
        </button>
      </PostForm>
    </ModerationFrame>
  );
}

export function RetractionConfirmPage(props: Frame & { story: StoryResponse; reason: string }) {
  const { lang, story } = props;
  const path = `/console/moderation/stories/${enc(story.id)}`;
  const back = storyPage(story.id, lang);
  return (
    <ModerationFrame {...props} title={t(lang, 'console.moderation.retractTitle', { title: story.title })} here="stories" path={path}>
      <p>{t(lang, 'console.moderation.retractConfirm')}</p>
      <dl class="facts">
        <dt>{t(lang, 'console.moderation.story')}</dt>
        <dd>
          <code>{story.id}</code> · {story.title}
        </dd>
        <dt>{t(lang, 'console.reason')}</dt>
        <dd>{props.reason}</dd>
      </dl>
      <ActionForm lang={lang} action={`${path}/retraction`} back={back} submit={t(lang, 'console.moderation.retractSend')} danger>
        <input type="hidden" name="reason" value={props.reason} />
      </ActionForm>
      <p>
        <a href={back}>{t(lang, 'console.moderation.backToStory')}</a>
      </p>
    </ModerationFrame>
  );
}
