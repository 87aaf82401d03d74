import type { Static } from '@sinclair/typebox';
import { t, type Lang } from '../../words/index.js';
import type { ReviewQueue } from '../../../rewards/review/schemas.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { ActionForm, Field, When } from './parts.js';
import { Money, RewardsFrame } from './rewards.js';

type Queue = Static<typeof ReviewQueue>;

/** What is frozen now (from the review queue), each with its unfreeze, and the freeze of a recipient or a story. */
export function RewardsFreezesPage(props: { lang: Lang; areas: readonly ConsoleArea[]; queue: Queue }) {
  const { lang, queue } = props;
  const back = href('/console/rewards/freezes', lang);
  const frozen = queue.items.filter((i) => i.kind === 'FROZEN_RECIPIENT' || i.kind === 'FROZEN_STORY');
  return (
    <RewardsFrame
      lang={lang}
      areas={props.areas}
      section="freezes"
      title={t(lang, 'console.rewards.freezesTitle')}
      path="/console/rewards/freezes"
    >
      <p>{t(lang, 'console.rewards.freezesText')}</p>
      <section aria-labelledby="frozen">
        <h2 id="frozen">{t(lang, 'console.rewards.frozenNow')}</h2>
        {frozen.length === 0 ? <p>{t(lang, 'console.rewards.nothingFrozen')}</p> : null}
        {frozen.map((item) => (
          <article class="freeze" aria-labelledby={`frozen-${item.targetId}`}>
            <h3 id={`frozen-${item.targetId}`}>
              {t(lang, `console.queueItem.${item.kind}`)} <code>{item.targetId}</code>
            </h3>
            <p>
              {t(lang, 'console.rewards.frozenSince', { reason: item.reason ?? '—', by: item.by ?? '—' })}{' '}
              <When lang={lang} at={item.since} />
            </p>
            {item.held ? (
              <p>
                {t(lang, 'console.rewards.heldCount', { count: item.held.count })}: <Money lang={lang} amount={item.held.amount} />
              </p>
            ) : null}
            <ActionForm lang={lang} action="/console/rewards/freezes" back={back} submit={t(lang, 'console.rewards.unfreeze')}>
              <input type="hidden" name="targetType" value={item.targetType} />
              <input type="hidden" name="targetId" value={item.targetId} />
              <input type="hidden" name="move" value="unfreeze" />
              <Field id={`unfreeze-${item.targetId}`} label={t(lang, 'console.reason')}>
                <input id={`unfreeze-${item.targetId}`} name="reason" required maxLength={2000} />
              </Field>
            </ActionForm>
          </article>
        ))}
      </section>
      <section aria-labelledby="freeze">
        <h2 id="freeze">{t(lang, 'console.rewards.freezeTitle')}</h2>
        <ActionForm
          lang={lang}
          action="/console/rewards/freezes"
          back={back}
          submit={t(lang, 'console.rewards.send')}
          class="console-form stacked"
        >
          <Field id="freeze-move" label={t(lang, 'console.rewards.freezeMove')}>
            <select id="freeze-move" name="move">
              <option value="freeze">{t(lang, 'console.rewards.freeze')}</option>
              <option value="unfreeze">{t(lang, 'console.rewards.unfreeze')}</option>
            </select>
          </Field>
          <Field id="freeze-type" label={t(lang, 'console.rewards.targetType')}>
            <select id="freeze-type" name="targetType">
              <option value="STORY">{t(lang, 'console.targetType.STORY')}</option>
              <option value="RECIPIENT">{t(lang, 'console.targetType.RECIPIENT')}</option>
            </select>
          </Field>
          <Field id="freeze-target" label={t(lang, 'console.rewards.targetId')}>
            <input id="freeze-target" name="targetId" required maxLength={200} pattern="[A-Za-z0-9_.:\-]+" />
          </Field>
          <Field id="freeze-reason" label={t(lang, 'console.reason')}>
            <textarea id="freeze-reason" name="reason" required maxLength={2000} />
          </Field>
        </ActionForm>
      </section>
    </RewardsFrame>
  );
}
