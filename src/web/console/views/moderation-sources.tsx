import { t } from '../../words/index.js';
import { SOURCE_RATINGS, type SourceStatusResponse } from '../../../newsroom/moderation/schemas.js';
import type { SourcesResponse } from '../../../newsroom/stories/evidence-schemas.js';
import { href } from '../../site/links.js';
import { ModerationFrame, type Frame } from './moderation-frame.js';
import { ActionForm, consoleFlashText, Field, When } from './parts.js';

export function SourcesPage(
  props: Frame & {
    last: SourceStatusResponse | null;
    storyId: string | null;
    sources: SourcesResponse['sources'] | null;
    lookupRefused: string | null;
  },
) {
  const { lang, last } = props;
  const back = href('/console/moderation/sources', lang, { story: props.storyId ?? undefined });
  return (
    <ModerationFrame
      {...props}
      title={t(lang, 'console.moderation.section.sources')}
      here="sources"
      path="/console/moderation/sources"
      query={{ story: props.storyId ?? undefined }}
    >
      <p>{t(lang, 'console.moderation.sourcesText')}</p>
      <h2>{t(lang, 'console.moderation.setSource')}</h2>
      <ActionForm lang={lang} action="/console/moderation/sources/status" back={back} submit={t(lang, 'console.moderation.setSource')}>
        <Field id="source-host" label={t(lang, 'console.moderation.host')} hint={t(lang, 'console.moderation.hostHint')}>
          <input id="source-host" name="host" required maxLength={253} aria-describedby="source-host-hint" />
        </Field>
        <Field id="source-status" label={t(lang, 'console.status')}>
          <select id="source-status" name="status">
            {SOURCE_RATINGS.map((rating) => (
              <option value={rating}>{t(lang, `console.moderation.rating.${rating}`)}</option>
            ))}
          </select>
        </Field>
        <Field id="source-reason" label={t(lang, 'console.reason')}>
          <input id="source-reason" name="reason" required maxLength={2000} />
        </Field>
      </ActionForm>
      {last ? (
        <section aria-labelledby="source-answer">
          <h2 id="source-answer">{t(lang, 'console.moderation.sourceAnswer', { host: last.id })}</h2>
          <dl class="facts">
            <dt>{t(lang, 'console.status')}</dt>
            <dd>
              {t(lang, 'console.moderation.fromTo', {
                from: t(lang, `console.moderation.rating.${last.previousStatus}`),
                to: t(lang, `console.moderation.rating.${last.status}`),
              })}
            </dd>
            <dt>{t(lang, 'console.reason')}</dt>
            <dd>{last.reason}</dd>
            <dt>{t(lang, 'console.moderation.by')}</dt>
            <dd>
              {last.updatedBy} · <When lang={lang} at={last.updatedAt} />
            </dd>
            <dt>{t(lang, 'console.moderation.citations')}</dt>
            <dd>{t(lang, 'console.moderation.citationsText', { count: last.citations })}</dd>
          </dl>
        </section>
      ) : null}
      <h2>{t(lang, 'console.moderation.storySources')}</h2>
      <form method="get" action="/console/moderation/sources" class="console-form">
        <input type="hidden" name="lang" value={lang} />
        <Field id="sources-story" label={t(lang, 'console.moderation.storyId')}>
          <input id="sources-story" name="story" value={props.storyId ?? ''} maxLength={64} pattern="[A-Za-z0-9_\-]*" />
        </Field>
        <button type="submit">{t(lang, 'console.moderation.show')}</button>
      </form>
      {props.lookupRefused ? <p role="alert">{consoleFlashText(lang, { kind: 'refused', message: props.lookupRefused })}</p> : null}
      {props.sources ? (
        props.sources.length === 0 ? (
          <p>{t(lang, 'console.empty')}</p>
        ) : (
          <table>
            <caption>{t(lang, 'console.moderation.storySourcesOf', { id: props.storyId ?? '' })}</caption>
            <thead>
              <tr>
                <th scope="col">{t(lang, 'console.moderation.source')}</th>
                <th scope="col">{t(lang, 'console.moderation.hostStatus')}</th>
                <th scope="col">{t(lang, 'console.moderation.sourceReview')}</th>
                <th scope="col">{t(lang, 'console.moderation.inPacket')}</th>
              </tr>
            </thead>
            <tbody>
              {props.sources.map((s) => (
                <tr>
                  <th scope="row">
                    <code>{s.url}</code>
                    {s.title ? ` · ${s.title}` : ''}
                  </th>
                  <td class={s.sourceStatus === 'BANNED' ? 'tag-bad' : s.sourceStatus === 'WATCH' ? 'tag-warn' : undefined}>
                    {t(lang, `console.moderation.rating.${s.sourceStatus as (typeof SOURCE_RATINGS)[number]}`)}
                  </td>
                  <td>{s.status}</td>
                  <td>{t(lang, s.active ? 'console.yes' : 'console.no')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </ModerationFrame>
  );
}
