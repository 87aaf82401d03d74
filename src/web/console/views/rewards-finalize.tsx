import { t, type Lang } from '../../words/index.js';
import type { createClaimsService } from '../../../rewards/claims/service.js';
import { href } from '../../site/links.js';
import type { Flash } from '../../site/session.js';
import type { ConsoleArea } from '../access.js';
import { ActionForm, ConsoleFlash, Field, TableScroll, When } from './parts.js';
import { Money, RewardsFrame } from './rewards.js';
import { Beneficiary, SHOWN } from './rewards-settlement-parts.js';

/** What a finalize would batch now: its total, payouts, wallets, recipients and the request it needs above the threshold. */
export type FinalizePreview = NonNullable<Awaited<ReturnType<ReturnType<typeof createClaimsService>['finalizePreview']>>>;

/** The people a batch pays, largest first, by display name (their linked human id in the title), with wallet and amount. */
export function BatchRecipients(props: { lang: Lang; preview: FinalizePreview; names: Readonly<Record<string, string>> }) {
  const { lang, preview } = props;
  return (
    <TableScroll
      label={t(lang, 'console.rewards.batchRecipients', {
        shown: Math.min(SHOWN, preview.recipients.length),
        count: preview.recipients.length,
      })}
    >
      <table>
        <caption>
          {t(lang, 'console.rewards.batchRecipients', {
            shown: Math.min(SHOWN, preview.recipients.length),
            count: preview.recipients.length,
          })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t(lang, 'console.rewards.recipientName')}</th>
            <th scope="col">{t(lang, 'console.rewards.wallet')}</th>
            <th scope="col">{t(lang, 'console.rewards.payouts')}</th>
            <th scope="col">{t(lang, 'console.rewards.amount')}</th>
          </tr>
        </thead>
        <tbody>
          {preview.recipients.slice(0, SHOWN).map((r) => (
            <tr>
              <th scope="row">
                <Beneficiary lang={lang} names={props.names} kind="HUMAN" id={r.linkedHumanId} />
              </th>
              <td>
                <code class="hash">{r.wallet}</code>
              </td>
              <td class="num">{r.payoutCount}</td>
              <td class="num">
                <Money lang={lang} amount={r.amount} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** A batch before and after its finalize, in two sentences: the payable payouts in no batch, then one batch for these wallets. */
export function BatchBeforeAfter(props: { lang: Lang; preview: FinalizePreview; claimWindowDays: string | number }) {
  const { lang, preview } = props;
  return (
    <dl class="totals">
      <dt>{t(lang, 'console.rewards.before')}</dt>
      <dd>{t(lang, 'console.rewards.batchBefore', { payouts: preview.payoutCount, orbs: preview.total.display })}</dd>
      <dt>{t(lang, 'console.rewards.after')}</dt>
      <dd>{t(lang, 'console.rewards.batchAfter', { leaves: preview.leafCount, days: props.claimWindowDays })}</dd>
    </dl>
  );
}

/**
 * The confirm step of a finalize: what it would batch now (total, payouts, wallets, the claim deadline, the people
 * it pays by name), what cannot be undone, and the button; above the threshold, the request for a second rewards
 * admin instead. The console previews again when it is sent and refuses it if the batch changed in between.
 */
export function RewardsFinalizePage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  claimWindowDays: number;
  /** About when claims would close: now plus the window. */
  deadline: string;
  preview: FinalizePreview | null;
  names: Readonly<Record<string, string>>;
  refusal: Flash | null;
}) {
  const { lang, preview } = props;
  const days = String(props.claimWindowDays);
  const here = href('/console/rewards/claims/finalize', lang, { claimWindowDays: days });
  return (
    <RewardsFrame
      lang={lang}
      areas={props.areas}
      section="claims"
      title={t(lang, 'console.rewards.finalizeConfirmTitle')}
      path="/console/rewards/claims/finalize"
      query={{ claimWindowDays: days }}
    >
      {props.refusal ? <ConsoleFlash lang={lang} flash={props.refusal} /> : null}
      {!preview && !props.refusal ? <p role="status">{t(lang, 'console.rewards.nothingToFinalize')}</p> : null}
      {preview ? (
        <>
          <dl class="totals">
            <dt>{t(lang, 'console.rewards.total')}</dt>
            <dd>
              <Money lang={lang} amount={preview.total} />
            </dd>
            <dt>{t(lang, 'console.rewards.leaves')}</dt>
            <dd>{t(lang, 'console.rewards.leavesText', { leaves: preview.leafCount, payouts: preview.payoutCount })}</dd>
            <dt>{t(lang, 'console.rewards.deadline')}</dt>
            <dd>
              {t(lang, 'console.rewards.deadlineAbout', { days })} <When lang={lang} at={props.deadline} />
            </dd>
          </dl>
          <BatchBeforeAfter lang={lang} preview={preview} claimWindowDays={days} />
          <p class="tag-warn" role="note">
            <strong>{t(lang, 'console.rewards.finalizeIrreversible')}</strong>
          </p>
          {preview.secondApproval.required ? (
            <ActionForm
              lang={lang}
              action="/console/rewards/claims/request"
              back={here}
              submit={t(lang, 'console.rewards.askSecondFinalize')}
            >
              <p>
                {t(lang, 'console.rewards.finalizeSecondNeeded', { orbs: preview.total.display, above: preview.secondApproval.aboveOrbs })}
              </p>
              <input type="hidden" name="claimWindowDays" value={days} />
              <input type="hidden" name="previewDigest" value={preview.previewDigest} />
              <Field id="reason" label={t(lang, 'console.rewards.askFinalizeReason')}>
                <input id="reason" name="reason" required maxLength={2000} />
              </Field>
            </ActionForm>
          ) : (
            <ActionForm
              lang={lang}
              action="/console/rewards/claims/finalize"
              back={here}
              submit={t(lang, 'console.rewards.finalizeNow', { orbs: preview.total.display })}
              danger
            >
              <input type="hidden" name="claimWindowDays" value={days} />
              <input type="hidden" name="previewDigest" value={preview.previewDigest} />
            </ActionForm>
          )}
          <BatchRecipients lang={lang} preview={preview} names={props.names} />
        </>
      ) : null}
      <p>
        <a href={href('/console/rewards/claims', lang)}>{t(lang, 'console.rewards.backToClaims')}</a>
      </p>
    </RewardsFrame>
  );
}
