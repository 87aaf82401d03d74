import type { Static } from '@sinclair/typebox';
import { t, type Lang } from '../../words/index.js';
import type { Preview } from '../../../rewards/settlements/schemas.js';
import { href } from '../../site/links.js';
import type { Flash } from '../../site/session.js';
import type { ConsoleArea } from '../access.js';
import { ActionForm, ConsoleFlash, When } from './parts.js';
import { Money, RewardsFrame } from './rewards.js';
import { SHOWN, TotalsTable } from './rewards-settlement-parts.js';

/**
 * What a run would pay now, and the run's form carrying these totals: the console previews again when it is
 * sent and refuses the run if the totals changed in between.
 */
export function RewardsPreviewPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  totalPoolOrbs: string;
  preview: Static<typeof Preview> | null;
  refusal: Flash | null;
}) {
  const { lang, preview } = props;
  const here = href('/console/rewards/settlements/preview', lang, { totalPoolOrbs: props.totalPoolOrbs });
  return (
    <RewardsFrame
      lang={lang}
      areas={props.areas}
      section="settlements"
      title={t(lang, 'console.rewards.previewTitle')}
      path="/console/rewards/settlements/preview"
      query={{ totalPoolOrbs: props.totalPoolOrbs }}
    >
      {props.refusal ? <ConsoleFlash lang={lang} flash={props.refusal} /> : null}
      {preview ? (
        <>
          <p>
            {t(lang, 'console.rewards.previewSummary', {
              stories: preview.storyCount,
              contributions: preview.contributionCount,
              payouts: preview.payoutCount,
              version: preview.policyVersion,
            })}{' '}
            <When lang={lang} at={preview.windowsClosedBefore} />
          </p>
          <TotalsTable lang={lang} totals={preview} caption={t(lang, 'console.rewards.byRole')} />
          {preview.runnable ? (
            <ActionForm
              lang={lang}
              action="/console/rewards/settlements/run"
              back={here}
              submit={t(lang, 'console.rewards.run', { paid: preview.paid.display, count: preview.payoutCount })}
              danger
            >
              <p>{t(lang, 'console.rewards.runText')}</p>
              <input type="hidden" name="totalPoolOrbs" value={props.totalPoolOrbs} />
              <input type="hidden" name="policyVersion" value={String(preview.policyVersion)} />
              <input type="hidden" name="pool" value={preview.pool.base} />
              <input type="hidden" name="escrow" value={preview.escrow.base} />
              <input type="hidden" name="paid" value={preview.paid.base} />
              <input type="hidden" name="storyCount" value={String(preview.storyCount)} />
              <input type="hidden" name="payoutCount" value={String(preview.payoutCount)} />
            </ActionForm>
          ) : (
            <p class="tag-bad" role="status">
              {t(lang, 'console.rewards.notRunnable', { status: preview.policyStatus })}
            </p>
          )}
          <table>
            <caption>
              {t(lang, 'console.rewards.beneficiaries', {
                shown: Math.min(SHOWN, preview.beneficiaries.length),
                count: preview.beneficiaries.length,
              })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t(lang, 'console.rewards.beneficiary')}</th>
                <th scope="col">{t(lang, 'console.rewards.amount')}</th>
                <th scope="col">{t(lang, 'console.rewards.payable')}</th>
              </tr>
            </thead>
            <tbody>
              {preview.beneficiaries.slice(0, SHOWN).map((b) => (
                <tr>
                  <th scope="row">
                    {b.beneficiaryKind === 'BOT' ? t(lang, 'console.rewards.bot') : t(lang, 'console.rewards.person')}{' '}
                    <code>{b.beneficiaryId}</code>
                  </th>
                  <td class="num">
                    <Money lang={lang} amount={b.amount} />
                  </td>
                  <td class="num">
                    <Money lang={lang} amount={b.payableAmount} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <p>
        <a href={href('/console/rewards/settlements', lang)}>{t(lang, 'console.rewards.toSettlements')}</a>
      </p>
    </RewardsFrame>
  );
}
