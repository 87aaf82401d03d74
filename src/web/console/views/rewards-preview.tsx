import type { Static } from '@sinclair/typebox';
import { t, type Lang } from '../../words/index.js';
import type { Preview } from '../../../rewards/settlements/schemas.js';
import { href } from '../../site/links.js';
import type { Flash } from '../../site/session.js';
import type { ConsoleArea } from '../access.js';
import { ActionForm, ConsoleFlash, Field, When } from './parts.js';
import { Money, RewardsFrame } from './rewards.js';
import { Beneficiary, SHOWN, TotalsTable } from './rewards-settlement-parts.js';

/**
 * What a run would pay now, and the run's form carrying these totals: the console previews again when it is
 * sent and refuses the run if the totals changed in between.
 */
export function RewardsPreviewPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  totalPoolOrbs: string;
  preview: Static<typeof Preview> | null;
  /** Beneficiaries' names by `KIND:id` (beneficiary-names.ts); a beneficiary without one is "a bot" / "a person". */
  names: Readonly<Record<string, string>>;
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
          <PayableNow lang={lang} preview={preview} />
          {preview.runnable && preview.secondApproval.required ? (
            <ActionForm lang={lang} action="/console/rewards/settlements/request" back={here} submit={t(lang, 'console.rewards.askSecond')}>
              <p>{t(lang, 'console.rewards.secondNeeded', { orbs: preview.pool.display, above: preview.secondApproval.aboveOrbs })}</p>
              <input type="hidden" name="totalPoolOrbs" value={props.totalPoolOrbs} />
              <input type="hidden" name="previewDigest" value={preview.previewDigest} />
              <Field id="reason" label={t(lang, 'console.rewards.askReason')}>
                <input id="reason" name="reason" required maxLength={2000} />
              </Field>
            </ActionForm>
          ) : preview.runnable ? (
            <ActionForm lang={lang} action="/console/rewards/settlements/run" back={here} submit={runLabel(lang, preview)} danger>
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
                    <Beneficiary lang={lang} names={props.names} kind={b.beneficiaryKind} id={b.beneficiaryId} />
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

type PreviewBody = Static<typeof Preview>;

/** The run button says what a run pays now, and what it leaves pending. */
export function runLabel(lang: Lang, p: PreviewBody): string {
  return BigInt(p.pending.base) === 0n
    ? t(lang, 'console.rewards.runNow', { payable: p.byStatus.PAYABLE.display })
    : t(lang, 'console.rewards.runNowPending', { payable: p.byStatus.PAYABLE.display, pending: p.pending.display });
}

/**
 * What the run pays now and what waits, in words, next to the button: payable now, and pending with its reasons
 * (no recipient terms or wallet, frozen, in review), each with its amount.
 */
function PayableNow(props: { lang: Lang; preview: PreviewBody }) {
  const { lang, preview } = props;
  const s = preview.byStatus;
  const reasons = (
    [
      ['PENDING_RECIPIENT', 'console.rewards.pendingRecipient'],
      ['FROZEN', 'console.rewards.pendingFrozen'],
      ['REVIEW', 'console.rewards.pendingReview'],
    ] as const
  ).filter(([state]) => BigInt(s[state].base) > 0n);
  return (
    <section aria-labelledby="payable-now" class="payable-now">
      <h2 id="payable-now">{t(lang, 'console.rewards.payableTitle')}</h2>
      <p>
        {t(lang, 'console.rewards.payableNowIs')} <Money lang={lang} amount={s.PAYABLE} />
      </p>
      {reasons.length ? (
        <>
          <p>{t(lang, 'console.rewards.pendingIntro')}</p>
          <ul>
            {reasons.map(([state, words]) => (
              <li>
                {t(lang, words)} <Money lang={lang} amount={s[state]} />
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>{t(lang, 'console.rewards.nothingPending')}</p>
      )}
    </section>
  );
}
