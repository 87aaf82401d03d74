import { t, type Lang } from '../../words/index.js';
import type { ChainVerdict } from '../../../platform/audit/verify-chain.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { ConsoleLayout } from './layout.js';
import { ActionForm, When } from './parts.js';

/** The audit chain: "verify" walks every row in order and names the first broken one. */
export function AuditPage(props: { lang: Lang; areas: readonly ConsoleArea[]; verdict: (ChainVerdict & { at: string }) | null }) {
  const { lang, verdict } = props;
  return (
    <ConsoleLayout lang={lang} title={t(lang, 'console.area.audit')} areas={props.areas} area="audit" path="/console/audit">
      <h1>{t(lang, 'console.area.audit')}</h1>
      <p>{t(lang, 'console.audit.text')}</p>
      <ActionForm lang={lang} action="/console/audit/verify" back={href('/console/audit', lang)} submit={t(lang, 'console.audit.verify')} />
      {verdict ? (
        <section aria-labelledby="verdict">
          <h2 id="verdict">
            {t(lang, 'console.audit.verdict')} <When lang={lang} at={verdict.at} />
          </h2>
          {verdict.ok ? (
            <dl class="facts">
              <dt>{t(lang, 'console.audit.events')}</dt>
              <dd class="tag-ok">{verdict.events}</dd>
              <dt>{t(lang, 'console.audit.head')}</dt>
              <dd>
                <code class="hash">{verdict.headHash}</code>
              </dd>
            </dl>
          ) : (
            <dl class="facts">
              <dt>{t(lang, 'console.audit.brokenRow')}</dt>
              <dd class="tag-bad">
                seq {verdict.broken.seq} · <code>{verdict.broken.id}</code>
              </dd>
              <dt>{t(lang, 'console.audit.why')}</dt>
              <dd>
                <code>{verdict.broken.reason}</code>
              </dd>
              <dt>{t(lang, 'console.audit.before')}</dt>
              <dd>{verdict.events}</dd>
            </dl>
          )}
        </section>
      ) : null}
    </ConsoleLayout>
  );
}
