import { t, type Lang } from '../../words/index.js';
import type { AnalysisResponse } from '../../../governance/integrity/schemas.js';
import type { Signal } from '../../../governance/parameters/schemas.js';
import { href, storyHref } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { CartelGraph, CLUSTER_COLOURS, memberAnchor } from './cartel-graph.js';
import { ConsoleLayout } from './layout.js';
import { ActionForm, Field, When } from './parts.js';

export interface IntegrityProps {
  lang: Lang;
  areas: readonly ConsoleArea[];
  analysis: AnalysisResponse | null;
  discount: number;
  collusion: Signal | null;
  /** Payouts held for review per bot (rewards admins only; null: not shown). */
  held: Record<string, number> | null;
}

const pct = (share: number) => `${Math.round(share * 100)}%`;

export function IntegrityPage(props: IntegrityProps) {
  const { lang, analysis } = props;
  const latest = props.collusion?.collusion;
  return (
    <ConsoleLayout lang={lang} title={t(lang, 'console.area.integrity')} areas={props.areas} area="integrity" path="/console/integrity">
      <h1>{t(lang, 'console.area.integrity')}</h1>
      <p>{t(lang, 'console.integrity.text')}</p>
      {latest ? (
        <p class="meta">
          {t(lang, 'console.integrity.latest', { clusters: latest.flaggedClusters, members: latest.flaggedMembers })}{' '}
          <When lang={lang} at={latest.analyzedAt} />
        </p>
      ) : null}
      <ActionForm
        lang={lang}
        action="/console/integrity/analyze"
        back={href('/console/integrity', lang)}
        submit={t(lang, 'console.integrity.analyze')}
      >
        <Field id="window-days" label={t(lang, 'console.integrity.windowDays')}>
          <input id="window-days" name="windowDays" type="number" min={1} max={365} value="30" />
        </Field>
        <Field id="min-cluster" label={t(lang, 'console.integrity.minClusterSize')}>
          <input id="min-cluster" name="minClusterSize" type="number" min={2} max={1000} value="2" />
        </Field>
      </ActionForm>
      {analysis ? <AnalysisReport {...props} analysis={analysis} /> : null}
    </ConsoleLayout>
  );
}

function AnalysisReport(props: IntegrityProps & { analysis: AnalysisResponse }) {
  const { lang, analysis } = props;
  const { summary } = analysis;
  return (
    <section aria-labelledby="report">
      <h2 id="report">
        {t(lang, 'console.integrity.report')} <When lang={lang} at={analysis.analyzedAt} />
      </h2>
      <p>
        {t(lang, 'console.integrity.summary', {
          acts: summary.acts,
          bots: summary.bots,
          actors: summary.actors,
          clusters: analysis.clusters.length,
        })}
      </p>
      <h3>{t(lang, 'console.integrity.changed')}</h3>
      <ul>
        <li>
          {props.discount > 0
            ? t(lang, 'console.integrity.discountOn', { discount: pct(props.discount) })
            : t(lang, 'console.integrity.discountOff')}
        </li>
        <li>{t(lang, 'console.integrity.holds')}</li>
      </ul>
      {analysis.clusters.length === 0 ? (
        <p>{t(lang, 'console.integrity.none')}</p>
      ) : (
        <>
          <ul class="legend">
            {analysis.clusters.map((cluster, i) => (
              <li>
                <span class={`swatch c${i % CLUSTER_COLOURS.length}`} aria-hidden="true" />
                {t(lang, 'console.integrity.clusterLegend', { n: i + 1, size: cluster.size, lift: cluster.evidence.lift.toFixed(1) })}
              </li>
            ))}
          </ul>
          <CartelGraph lang={lang} clusters={analysis.clusters} />
          {analysis.clusters.map((cluster, i) => (
            <section aria-labelledby={`cluster-${cluster.id}`}>
              <h3 id={`cluster-${cluster.id}`}>
                {t(lang, 'console.integrity.clusterN', { n: i + 1 })} ·{' '}
                {t(lang, 'console.integrity.score', { score: cluster.score.toFixed(2) })}
              </h3>
              <p>
                {t(lang, 'console.integrity.clusterFacts', {
                  inside: cluster.evidence.insideActs,
                  expected: cluster.evidence.expectedInsideActs.toFixed(1),
                  stories: cluster.evidence.storyCount,
                })}
              </p>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t(lang, 'console.integrity.member')}</th>
                    <th scope="col">{t(lang, 'console.integrity.acts')}</th>
                    <th scope="col">{t(lang, 'console.integrity.insideShare')}</th>
                    <th scope="col">{t(lang, 'console.integrity.expectedShare')}</th>
                    <th scope="col">{t(lang, 'console.integrity.received')}</th>
                    {props.held ? <th scope="col">{t(lang, 'console.integrity.held')}</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {cluster.evidence.members.map((member) => (
                    <tr id={memberAnchor(cluster.id, member.id)} class="member">
                      <th scope="row">
                        <code>{member.id}</code>
                      </th>
                      <td class="num">{member.acts}</td>
                      <td class="num">{pct(member.insideShare)}</td>
                      <td class="num">{pct(member.expectedInsideShare)}</td>
                      <td class="num">
                        {member.receivedInside} / {member.received}
                      </td>
                      {props.held ? <td class="num">{props.held[member.id] ?? 0}</td> : null}
                    </tr>
                  ))}
                </tbody>
              </table>
              {cluster.evidence.storyIds.length ? (
                <details>
                  <summary>{t(lang, 'console.integrity.stories', { count: cluster.evidence.storyCount })}</summary>
                  <ul class="list">
                    {cluster.evidence.storyIds.map((id) => (
                      <li>
                        <a href={storyHref(id, lang)}>{id}</a>
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </section>
          ))}
        </>
      )}
    </section>
  );
}
