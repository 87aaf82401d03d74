import type { Static } from '@sinclair/typebox';
import { t, type Lang } from '../../words/index.js';
import type { LegalHold, LegalHoldsPage } from '../../../newsroom/moderation/schemas.js';
import { href } from '../../site/links.js';
import { enc, ModerationFrame, storyPage, type Frame } from './moderation-frame.js';
import { Chips } from './parts.js';
import { ActionForm, Field, NextPage, When } from './parts.js';

type LegalHoldsPage = Static<typeof LegalHoldsPage>;

export function HoldRelease(props: { lang: Lang; hold: LegalHold; back: string }) {
  const { lang, hold } = props;
  const field = `release-${hold.id}`;
  return (
    <ActionForm
      lang={lang}
      action={`/console/moderation/legal-holds/${enc(hold.id)}/release`}
      back={props.back}
      submit={t(lang, 'console.moderation.releaseHold')}
    >
      <Field id={field} label={t(lang, 'console.reason')}>
        <input id={field} name="reason" required maxLength={2000} />
      </Field>
    </ActionForm>
  );
}

export function PlaceHold(props: { lang: Lang; back: string; storyId?: string }) {
  const { lang } = props;
  return (
    <ActionForm lang={lang} action="/console/moderation/legal-holds" back={props.back} submit={t(lang, 'console.moderation.placeHold')}>
      {props.storyId ? (
        <input type="hidden" name="storyId" value={props.storyId} />
      ) : (
        <Field id="hold-story" label={t(lang, 'console.moderation.storyId')}>
          <input id="hold-story" name="storyId" required maxLength={64} pattern="[A-Za-z0-9_\-]+" />
        </Field>
      )}
      <Field id="hold-reason" label={t(lang, 'console.reason')}>
        <input id="hold-reason" name="reason" required maxLength={2000} />
      </Field>
      <Field id="hold-case" label={t(lang, 'console.moderation.caseReference')}>
        <input id="hold-case" name="caseReference" maxLength={200} />
      </Field>
    </ActionForm>
  );
}

export function LegalHoldsListPage(props: Frame & { page: LegalHoldsPage; status: 'ACTIVE' | 'RELEASED' | null; storyId: string | null }) {
  const { lang, page, status, storyId } = props;
  const query = { status: status ?? undefined, storyId: storyId ?? undefined };
  const back = href('/console/moderation/legal-holds', lang, query);
  return (
    <ModerationFrame
      {...props}
      title={t(lang, 'console.moderation.section.holds')}
      here="holds"
      path="/console/moderation/legal-holds"
      query={query}
    >
      <p>{t(lang, 'console.moderation.holdsText')}</p>
      <h2>{t(lang, 'console.moderation.placeHold')}</h2>
      <PlaceHold lang={lang} back={back} />
      <h2>{t(lang, 'console.moderation.holds')}</h2>
      <Chips
        lang={lang}
        label={t(lang, 'console.status')}
        path="/console/moderation/legal-holds"
        param="status"
        values={['ACTIVE', 'RELEASED'] as const}
        current={status}
        word={(s) => t(lang, `console.moderation.hold.${s}`)}
        all
        query={{ storyId: storyId ?? undefined }}
      />
      <form method="get" action="/console/moderation/legal-holds" class="console-form">
        <input type="hidden" name="lang" value={lang} />
        {status ? <input type="hidden" name="status" value={status} /> : null}
        <Field id="holds-story" label={t(lang, 'console.moderation.storyId')}>
          <input id="holds-story" name="storyId" value={storyId ?? ''} maxLength={64} pattern="[A-Za-z0-9_\-]*" />
        </Field>
        <button type="submit">{t(lang, 'console.moderation.filter')}</button>
      </form>
      {page.items.length === 0 ? (
        <p>{t(lang, 'console.empty')}</p>
      ) : (
        <table>
          <caption>{t(lang, 'console.moderation.holds')}</caption>
          <thead>
            <tr>
              <th scope="col">{t(lang, 'console.moderation.hold')}</th>
              <th scope="col">{t(lang, 'console.moderation.story')}</th>
              <th scope="col">{t(lang, 'console.status')}</th>
              <th scope="col">{t(lang, 'console.reason')}</th>
              <th scope="col">{t(lang, 'console.moderation.placed')}</th>
              <th scope="col">{t(lang, 'console.moderation.released')}</th>
              <th scope="col">{t(lang, 'console.moderation.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((hold) => (
              <tr>
                <th scope="row">
                  <code>{hold.id}</code>
                </th>
                <td>
                  <a href={storyPage(hold.storyId, lang)}>{hold.storyId}</a>
                </td>
                <td class={hold.status === 'ACTIVE' ? 'tag-warn' : undefined}>{t(lang, `console.moderation.hold.${hold.status}`)}</td>
                <td>
                  {hold.reason}
                  {hold.caseReference ? ` (${hold.caseReference})` : ''}
                </td>
                <td>
                  {hold.placedBy} · <When lang={lang} at={hold.placedAt} />
                </td>
                <td>
                  {hold.releasedAt ? (
                    <>
                      {hold.releasedBy} · <When lang={lang} at={hold.releasedAt} /> · {hold.releaseReason}
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td>{hold.status === 'ACTIVE' ? <HoldRelease lang={lang} hold={hold} back={back} /> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NextPage lang={lang} path="/console/moderation/legal-holds" query={query} cursor={page.nextCursor} />
    </ModerationFrame>
  );
}
