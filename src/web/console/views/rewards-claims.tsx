import type { Static } from '@sinclair/typebox';
import { t, type Lang } from '../../words/index.js';
import type { BatchList, ClaimStatus } from '../../../rewards/claims/schemas.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { ActionForm, Field, NextPage, When } from './parts.js';
import { Money, RewardsFrame } from './rewards.js';

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

/** The claim rail: whether it is on, the distribution batches (newest first) and their freezes, and finalize. */
export function RewardsClaimsPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  status: Static<typeof ClaimStatus>;
  batches: Static<typeof BatchList>;
  cursor: string | null;
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
          <ActionForm lang={lang} action="/console/rewards/claims/finalize" back={back} submit={t(lang, 'console.rewards.finalize')}>
            <Field id="claim-window" label={t(lang, 'console.rewards.claimWindow')}>
              <input id="claim-window" name="claimWindowDays" type="number" min={1} max={365} placeholder="90" />
            </Field>
          </ActionForm>
        </section>
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
