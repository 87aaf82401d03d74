import type { Static } from '@sinclair/typebox';
import { t, type Lang } from '../../words/index.js';
import type { BatchList, ClaimStatus } from '../../../rewards/claims/schemas.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import type { ControlPlaneRequest } from '../../../governance/control-plane/schemas.js';
import { MoneyRequests, type OpenMoneyRequests } from './money-requests.js';
import { ActionForm, Field, NextPage, When } from './parts.js';
import { Money, RewardsFrame } from './rewards.js';
import { BatchBeforeAfter, BatchRecipients, type FinalizePreview } from './rewards-finalize.js';

type Batch = Static<typeof BatchList>['items'][number];

/** A batch's freeze or unfreeze: a reason, and the on-chain transaction that did it (the evidence the API checks). */
function BatchMove(props: { lang: Lang; batch: Batch; back: string }) {
  const { lang, batch } = props;
  const move = batch.frozen ? 'unfreeze' : 'freeze';
  const id = `${move}-${batch.id}`;
  return (
    <ActionForm
      lang={lang}
      action={`/console/rewards/claims/batches/${encodeURIComponent(batch.id)}/${move}`}
      back={props.back}
      submit={t(lang, batch.frozen ? 'console.rewards.unfreezeBatch' : 'console.rewards.freezeBatch')}
      danger={!batch.frozen}
    >
      <Field id={`${id}-reason`} label={t(lang, 'console.reason')}>
        <input id={`${id}-reason`} name="reason" required maxLength={2000} />
      </Field>
      <Field id={`${id}-tx`} label={t(lang, 'console.rewards.txHash')} hint={t(lang, 'console.rewards.txHashHint')}>
        <input id={`${id}-tx`} name="txHash" maxLength={66} pattern="0x[0-9a-fA-F]{64}" aria-describedby={`${id}-tx-hint`} />
      </Field>
    </ActionForm>
  );
}

/** What a finalize with the request's window would batch now, when that is the batch the request was approved for. */
function sameBatch(item: ControlPlaneRequest, current: Readonly<Record<string, FinalizePreview | null>>): FinalizePreview | null {
  const payload = item.payload as { claimWindowDays?: string; previewDigest?: string };
  const now = current[payload.claimWindowDays ?? '90'];
  return now && now.previewDigest === payload.previewDigest ? now : null;
}

/**
 * A batch.finalize request against what a finalize with its window would batch now: the same batch (its digest)
 * is said before → after with the people it pays; another one is said to be refused if used.
 */
function BatchRequestChange(props: {
  lang: Lang;
  item: ControlPlaneRequest;
  current: Readonly<Record<string, FinalizePreview | null>>;
  names: Readonly<Record<string, string>>;
}) {
  const { lang } = props;
  const now = sameBatch(props.item, props.current);
  if (!now) return <p class="tag-warn">{t(lang, 'console.rewards.requestStale')}</p>;
  return (
    <>
      <BatchBeforeAfter
        lang={lang}
        preview={now}
        claimWindowDays={(props.item.payload as { claimWindowDays?: string }).claimWindowDays ?? '90'}
      />
      <BatchRecipients lang={lang} preview={now} names={props.names} />
    </>
  );
}

/**
 * The claim rail: whether it is on, finalize (a confirm page first), the batch finalizes that need two people, the
 * distribution batches (newest first) and their freezes.
 */
export function RewardsClaimsPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  status: Static<typeof ClaimStatus>;
  batches: Static<typeof BatchList>;
  cursor: string | null;
  open: OpenMoneyRequests;
  /** What a finalize would batch now, by the claim windows of the open requests (null: nothing payable). */
  current: Readonly<Record<string, FinalizePreview | null>>;
  /** The recipients' names by `HUMAN:<linked human id>`. */
  names: Readonly<Record<string, string>>;
}) {
  const { lang, status, batches } = props;
  const back = href('/console/rewards/claims', lang);
  return (
    <RewardsFrame
      lang={lang}
      areas={props.areas}
      section="claims"
      title={t(lang, 'console.rewards.claimsTitle')}
      path="/console/rewards/claims"
      query={{ cursor: props.cursor ?? undefined }}
    >
      <p class={status.state === 'ACTIVE' ? 'tag-ok' : 'tag-warn'} role="status">
        {status.state === 'ACTIVE'
          ? t(lang, 'console.rewards.claimsActive', { address: status.distributorAddress ?? '—', count: status.minConfirmations })
          : t(lang, status.state === 'DISABLED' ? 'console.rewards.claimsDisabled' : 'console.rewards.claimsNotConfigured')}
      </p>
      {status.state === 'ACTIVE' ? (
        <section aria-labelledby="finalize">
          <h2 id="finalize">{t(lang, 'console.rewards.finalizeTitle')}</h2>
          <p>{t(lang, 'console.rewards.finalizeText')}</p>
          <form method="get" action="/console/rewards/claims/finalize" class="console-form">
            <input type="hidden" name="lang" value={lang} />
            <Field id="claim-window" label={t(lang, 'console.rewards.claimWindow')}>
              <input id="claim-window" name="claimWindowDays" type="number" min={1} max={365} placeholder="90" />
            </Field>
            <button type="submit">{t(lang, 'console.rewards.finalizeReview')}</button>
          </form>
        </section>
      ) : null}
      {status.state === 'ACTIVE' || props.open.requests.length > 0 ? (
        <MoneyRequests
          lang={lang}
          open={props.open}
          back={back}
          title={t(lang, 'console.rewards.finalizeApprovals')}
          empty={t(lang, 'console.rewards.noFinalizeApprovals')}
          details={(item) => <BatchRequestChange lang={lang} item={item} current={props.current} names={props.names} />}
          usable={(item) => sameBatch(item, props.current) !== null}
        />
      ) : null}
      <section aria-labelledby="batches">
        <h2 id="batches">{t(lang, 'console.rewards.batches')}</h2>
        {batches.items.length === 0 ? <p>{t(lang, 'console.rewards.noBatches')}</p> : null}
        {batches.items.map((batch) => (
          <article class="batch" aria-labelledby={`batch-${batch.id}`}>
            <h3 id={`batch-${batch.id}`}>
              {t(lang, 'console.rewards.batchTitle', { id: batch.id })}{' '}
              <span class={batch.frozen ? 'tag-bad' : 'tag-ok'}>
                {t(lang, batch.frozen ? 'console.rewards.batchFrozenState' : 'console.rewards.batchActiveState')}
              </span>
            </h3>
            <dl class="totals">
              <dt>{t(lang, 'console.rewards.total')}</dt>
              <dd>
                <Money lang={lang} amount={batch.total} />
              </dd>
              <dt>{t(lang, 'console.rewards.leaves')}</dt>
              <dd>{t(lang, 'console.rewards.leavesText', { leaves: batch.leafCount, payouts: batch.payoutCount })}</dd>
              <dt>{t(lang, 'console.rewards.deadline')}</dt>
              <dd>
                <When lang={lang} at={batch.claimDeadline} />
              </dd>
              <dt>{t(lang, 'console.rewards.merkleRoot')}</dt>
              <dd>
                <code>{batch.merkleRoot}</code>
              </dd>
              <dt>{t(lang, 'console.rewards.chainBatchId')}</dt>
              <dd>
                <code>{batch.chainBatchId}</code>
              </dd>
              <dt>{t(lang, 'console.rewards.finalizedBy')}</dt>
              <dd>
                {batch.finalizedBy} · <When lang={lang} at={batch.createdAt} />
              </dd>
              {batch.frozen ? (
                <>
                  <dt>{t(lang, 'console.reason')}</dt>
                  <dd>
                    {batch.frozenReason ?? '—'}
                    {batch.onChainFreezeTxHash ? (
                      <>
                        {' '}
                        (<code>{batch.onChainFreezeTxHash}</code>)
                      </>
                    ) : null}
                  </dd>
                </>
              ) : null}
            </dl>
            <BatchMove lang={lang} batch={batch} back={back} />
          </article>
        ))}
        <NextPage lang={lang} path="/console/rewards/claims" cursor={batches.nextCursor} />
      </section>
      <section aria-labelledby="receipts">
        <h2 id="receipts">{t(lang, 'console.rewards.receipts')}</h2>
        <p>{t(lang, 'console.rewards.receiptsText')}</p>
      </section>
    </RewardsFrame>
  );
}
