import { t } from '../../words/index.js';
import { DELIVERY_STATES, type DeliveryLog, type DeliveryState } from '../../../delivery/webhooks/delivery-log.js';
import { deliveriesHref, ModerationFrame, storyPage, type Frame } from './moderation-frame.js';
import { Chips } from './parts.js';
import { Field, NextPage, When } from './parts.js';

export function DeliveriesPage(
  props: Frame & { log: DeliveryLog; state: DeliveryState | null; eventId: string | null; before: string | null },
) {
  const { lang, log, state, eventId, before } = props;
  const query = { state: state ?? undefined, event: eventId ?? undefined };
  return (
    <ModerationFrame
      {...props}
      title={t(lang, 'console.moderation.section.webhooks')}
      here="webhooks"
      path="/console/moderation/webhooks"
      query={query}
    >
      <p>{t(lang, 'console.moderation.webhooksText')}</p>
      <table>
        <caption>{t(lang, 'console.moderation.counts')}</caption>
        <thead>
          <tr>
            {DELIVERY_STATES.map((s) => (
              <th scope="col">{t(lang, `console.moderation.delivery.${s}`)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {DELIVERY_STATES.map((s) => (
              <td class="num">{log.counts[s]}</td>
            ))}
          </tr>
        </tbody>
      </table>
      <Chips
        lang={lang}
        label={t(lang, 'console.status')}
        path="/console/moderation/webhooks"
        param="state"
        values={DELIVERY_STATES}
        current={state}
        word={(s) => t(lang, `console.moderation.delivery.${s}`)}
        all
        query={{ event: eventId ?? undefined }}
      />
      <form method="get" action="/console/moderation/webhooks" class="console-form">
        <input type="hidden" name="lang" value={lang} />
        {state ? <input type="hidden" name="state" value={state} /> : null}
        <Field id="event-filter" label={t(lang, 'console.moderation.eventId')}>
          <input id="event-filter" name="event" value={eventId ?? ''} maxLength={64} pattern="[A-Za-z0-9_\-]*" />
        </Field>
        <button type="submit">{t(lang, 'console.moderation.filter')}</button>
      </form>
      {log.deliveries.length === 0 ? <p>{t(lang, 'console.empty')}</p> : null}
      {log.deliveries.map((d) => (
        <article class="card" aria-labelledby={`delivery-${d.id}`}>
          <h2 id={`delivery-${d.id}`}>
            <code>{d.type}</code> → {d.endpoint}
          </h2>
          <dl class="facts">
            <dt>{t(lang, 'console.status')}</dt>
            <dd class={`delivery-${d.state}`}>{t(lang, `console.moderation.delivery.${d.state}`)}</dd>
            <dt>{t(lang, 'console.moderation.eventId')}</dt>
            <dd>
              <a href={deliveriesHref(lang, { event: d.eventId })}>{d.eventId}</a>
            </dd>
            <dt>{t(lang, 'console.moderation.story')}</dt>
            <dd>
              <a href={storyPage(d.storyId, lang)}>{d.storyId}</a>
            </dd>
            <dt>{t(lang, 'console.moderation.queued')}</dt>
            <dd>
              <When lang={lang} at={d.createdAt} />
            </dd>
            {d.nextAttemptAt ? (
              <>
                <dt>{t(lang, 'console.moderation.nextAttempt')}</dt>
                <dd>
                  <When lang={lang} at={d.nextAttemptAt} />
                </dd>
              </>
            ) : null}
            {d.deliveredAt || d.deadAt ? (
              <>
                <dt>{t(lang, d.deliveredAt ? 'console.moderation.deliveredAt' : 'console.moderation.deadAt')}</dt>
                <dd>
                  <When lang={lang} at={d.deliveredAt ?? d.deadAt} />
                </dd>
              </>
            ) : null}
          </dl>
          {d.attempts.length ? (
            <table>
              <caption>{t(lang, 'console.moderation.attempts', { count: d.attempts.length })}</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">{t(lang, 'console.when')}</th>
                  <th scope="col">{t(lang, 'console.moderation.httpStatus')}</th>
                  <th scope="col">{t(lang, 'console.moderation.outcome')}</th>
                  <th scope="col">{t(lang, 'console.moderation.error')}</th>
                </tr>
              </thead>
              <tbody>
                {d.attempts.map((a) => (
                  <tr>
                    <th scope="row" class="num">
                      {a.attempt}
                    </th>
                    <td>
                      <When lang={lang} at={a.startedAt} />
                    </td>
                    <td class="num">{a.statusCode ?? '—'}</td>
                    <td>{t(lang, `console.moderation.outcome.${a.outcome}`)}</td>
                    <td>{a.error ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>{t(lang, 'console.moderation.notTried')}</p>
          )}
        </article>
      ))}
      <NextPage lang={lang} path="/console/moderation/webhooks" query={query} cursor={log.older} param="before" />
      {before ? (
        <p>
          <a href={deliveriesHref(lang, query)}>{t(lang, 'console.moderation.newest')}</a>
        </p>
      ) : null}
    </ModerationFrame>
  );
}
