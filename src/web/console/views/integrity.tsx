import { t, type Lang } from '../../words/index.js';
import type { AnalysisResponse } from '../../../governance/integrity/schemas.js';
import type { FindingAction } from '../../../governance/integrity/service.js';
import type { Signal } from '../../../governance/parameters/schemas.js';
import { href, storyHref } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { CartelGraph, CLUSTER_COLOURS, memberAnchor, type GraphLabels } from './cartel-graph.js';
import { ConsoleLayout } from './layout.js';
import { ActionForm, Field, TableScroll, When } from './parts.js';

type Cluster = AnalysisResponse['clusters'][number];
type Analysis = AnalysisResponse & { id: string };

/** Members' names: bots' by bot id, readers' display names by actor id (absent: none chosen). */
export interface MemberNames {
  bots: ReadonlyMap<string, string>;
  actors: ReadonlyMap<string, string>;
}

export interface IntegrityProps {
  lang: Lang;
  areas: readonly ConsoleArea[];
  /** The latest analysis, or null before the first. */
  analysis: Analysis | null;
  /** What was done about its findings. */
  actions: readonly FindingAction[];
  names: MemberNames;
  discount: number;
  collusion: Signal | null;
}

const pct = (share: number) => `${Math.round(share * 100)}%`;

export const findingHref = (analysisId: string, clusterId: string, lang: Lang) =>
  href(`/console/integrity/findings/${encodeURIComponent(analysisId)}/${encodeURIComponent(clusterId)}`, lang);

/**
 * A member's name as the console shows it: a bot by its name, a reader by their display name; one without a name
 * by its kind and place in the cluster (never its raw id, which the title attribute carries).
 */
export function memberName(lang: Lang, names: MemberNames, cluster: Cluster, memberId: string): string {
  const member = cluster.evidence.members.find((m) => m.id === memberId);
  const kind = member?.kind ?? 'bot';
  const name = kind === 'bot' ? names.bots.get(memberId) : names.actors.get(memberId);
  if (name) return name;
  const n = cluster.evidence.members.filter((m) => m.kind === kind).findIndex((m) => m.id === memberId) + 1;
  return t(lang, kind === 'bot' ? 'console.integrity.unnamedBot' : 'console.integrity.unnamedReader', { n });
}

/**
 * The finding's one number: the share of its members' acts that were for or with each other, and the share
 * chance predicts for the same acts (the lift and the score are both made of these two).
 */
export function findingShare(cluster: Cluster) {
  const acts = cluster.evidence.members.reduce((s, m) => s + m.acts, 0);
  return {
    acts,
    share: acts ? cluster.evidence.insideActs / acts : 0,
    expected: acts ? cluster.evidence.expectedInsideActs / acts : 0,
  };
}

/** The number and its sentence, the same on the integrity page and the finding's page. */
function OneNumber(props: { lang: Lang; cluster: Cluster }) {
  const { lang, cluster } = props;
  const { acts, share, expected } = findingShare(cluster);
  return (
    <p class="finding-number">
      <strong class="big">{pct(share)}</strong>{' '}
      {t(lang, 'console.integrity.shareSentence', {
        size: cluster.size,
        acts,
        expected: expected < 0.01 ? '<1%' : pct(expected),
        stories: cluster.evidence.storyCount,
      })}
    </p>
  );
}

const labelsFor = (lang: Lang, names: MemberNames, analysisId: string): GraphLabels => ({
  nameOf: (cluster, id) => memberName(lang, names, cluster, id),
  hrefOf: (cluster, id) => `${findingHref(analysisId, cluster.id, lang)}#${memberAnchor(cluster.id, id)}`,
});

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

/** The dismissal of a finding, if any, in a sentence with who, when and why. */
function Dismissal(props: { lang: Lang; action: FindingAction | undefined }) {
  const { lang, action } = props;
  if (!action) return null;
  return (
    <p class="dismissed">
      <strong>{t(lang, 'console.integrity.dismissedBadge')}</strong>{' '}
      {t(lang, 'console.integrity.dismissedBy', { by: action.actedBy, reason: action.reason })} <When lang={lang} at={action.actedAt} />
    </p>
  );
}

function AnalysisReport(props: IntegrityProps & { analysis: Analysis }) {
  const { lang, analysis } = props;
  const { summary } = analysis;
  const dismissedOf = (clusterId: string) => props.actions.find((a) => a.clusterId === clusterId && a.action === 'DISMISSED');
  const waiting = analysis.clusters.filter((c) => !dismissedOf(c.id)).length;
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
        })}{' '}
        {analysis.clusters.length ? t(lang, 'console.integrity.waiting', { count: waiting }) : null}
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
                {t(lang, 'console.integrity.clusterLegend', { n: i + 1, size: cluster.size, share: pct(findingShare(cluster).share) })}
              </li>
            ))}
          </ul>
          <CartelGraph lang={lang} clusters={analysis.clusters} labels={labelsFor(lang, props.names, analysis.id)} />
          {analysis.clusters.map((cluster, i) => (
            <section aria-labelledby={`cluster-${cluster.id}`} class={dismissedOf(cluster.id) ? 'finding dismissed' : 'finding'}>
              <h3 id={`cluster-${cluster.id}`}>{t(lang, 'console.integrity.clusterN', { n: i + 1 })}</h3>
              <OneNumber lang={lang} cluster={cluster} />
              <p>
                {cluster.evidence.members.map((m, j) => (
                  <>
                    {j > 0 ? ', ' : null}
                    <span title={m.id}>{memberName(lang, props.names, cluster, m.id)}</span>
                  </>
                ))}
              </p>
              <Dismissal lang={lang} action={dismissedOf(cluster.id)} />
              <p>
                <a href={findingHref(analysis.id, cluster.id, lang)}>{t(lang, 'console.integrity.openFinding', { n: i + 1 })}</a>
              </p>
            </section>
          ))}
        </>
      )}
    </section>
  );
}

export interface FindingProps {
  lang: Lang;
  areas: readonly ConsoleArea[];
  analysis: Analysis;
  cluster: Cluster;
  index: number;
  actions: readonly FindingAction[];
  names: MemberNames;
  /** Whether this person may open review cases and freeze payouts (the rewards allowlist). */
  rewardsAdmin: boolean;
}

/** What was done about a finding, one line each. */
function ActionLog(props: { lang: Lang; cluster: Cluster; names: MemberNames; actions: readonly FindingAction[] }) {
  const { lang } = props;
  if (props.actions.length === 0) return <p>{t(lang, 'console.integrity.noActions')}</p>;
  return (
    <ul class="list">
      {props.actions.map((a) => (
        <li>
          {a.action === 'DISMISSED'
            ? t(lang, 'console.integrity.logDismissed', { by: a.actedBy, reason: a.reason })
            : a.action === 'CASE_OPENED'
              ? t(lang, 'console.integrity.logCase', { by: a.actedBy, case: a.reference ?? '', reason: a.reason })
              : t(lang, 'console.integrity.logFrozen', {
                  by: a.actedBy,
                  member: a.member ? memberName(lang, props.names, props.cluster, a.member.id) : '',
                  reason: a.reason,
                })}{' '}
          <When lang={lang} at={a.actedAt} />
        </li>
      ))}
    </ul>
  );
}

/** A finding's own page: its picture, number, members by name and evidence, what was done about it, and the forms to act. */
export function FindingPage(props: FindingProps) {
  const { lang, analysis, cluster, index, names } = props;
  const here = findingHref(analysis.id, cluster.id, lang);
  const path = `/console/integrity/findings/${encodeURIComponent(analysis.id)}/${encodeURIComponent(cluster.id)}`;
  const dismissal = props.actions.find((a) => a.action === 'DISMISSED');
  const title = t(lang, 'console.integrity.clusterN', { n: index + 1 });
  return (
    <ConsoleLayout lang={lang} title={title} areas={props.areas} area="integrity" path={path}>
      <p>
        <a href={href('/console/integrity', lang)}>{t(lang, 'console.integrity.backToAnalysis')}</a>
      </p>
      <h1>
        {title} · <When lang={lang} at={analysis.analyzedAt} />
      </h1>
      <OneNumber lang={lang} cluster={cluster} />
      <Dismissal lang={lang} action={dismissal} />
      <CartelGraph lang={lang} clusters={[cluster]} numbers={[index]} labels={labelsFor(lang, names, analysis.id)} />
      <TableScroll label={t(lang, 'console.integrity.membersTable')}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t(lang, 'console.integrity.member')}</th>
              <th scope="col">{t(lang, 'console.integrity.acts')}</th>
              <th scope="col">{t(lang, 'console.integrity.insideShare')}</th>
              <th scope="col">{t(lang, 'console.integrity.expectedShare')}</th>
              <th scope="col">{t(lang, 'console.integrity.received')}</th>
              {props.rewardsAdmin ? <th scope="col">{t(lang, 'console.integrity.payouts')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {cluster.evidence.members.map((member) => (
              <tr id={memberAnchor(cluster.id, member.id)} class="member">
                <th scope="row">
                  <span title={member.id}>{memberName(lang, names, cluster, member.id)}</span>{' '}
                  <small>{t(lang, member.kind === 'bot' ? 'console.integrity.kindBot' : 'console.integrity.kindReader')}</small>
                </th>
                <td class="num">{member.acts}</td>
                <td class="num">{pct(member.insideShare)}</td>
                <td class="num">{pct(member.expectedInsideShare)}</td>
                <td class="num">
                  {member.receivedInside} / {member.received}
                </td>
                {props.rewardsAdmin ? (
                  <td>
                    <a
                      href={href(`${path}/freeze`, lang, { member: `${member.kind}:${member.id}` })}
                      aria-label={t(lang, 'console.integrity.freezeMember', { name: memberName(lang, names, cluster, member.id) })}
                    >
                      {t(lang, 'console.integrity.freeze')}
                    </a>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
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
      <h2>{t(lang, 'console.integrity.done')}</h2>
      <ActionLog lang={lang} cluster={cluster} names={names} actions={props.actions} />
      <h2>{t(lang, 'console.integrity.act')}</h2>
      {props.rewardsAdmin && cluster.evidence.storyIds.length > 0 ? (
        <ActionForm
          lang={lang}
          action={`${path}/case`}
          back={here}
          submit={t(lang, 'console.integrity.openCase')}
          class="console-form stacked"
        >
          <Field id="case-target" label={t(lang, 'console.integrity.caseTarget')}>
            <select id="case-target" name="target">
              {cluster.evidence.storyIds.slice(0, 20).map((id) => (
                <option value={`STORY:${id}`}>{t(lang, 'console.integrity.caseStory', { id })}</option>
              ))}
            </select>
          </Field>
          <Field id="case-reason" label={t(lang, 'console.integrity.reason')}>
            <textarea id="case-reason" name="reason" required maxlength={1000} rows={3} />
          </Field>
        </ActionForm>
      ) : props.rewardsAdmin ? null : (
        <p>{t(lang, 'console.integrity.rewardsOnly')}</p>
      )}
      {dismissal ? null : (
        <ActionForm
          lang={lang}
          action={`${path}/dismiss`}
          back={here}
          submit={t(lang, 'console.integrity.dismiss')}
          class="console-form stacked"
        >
          <Field id="dismiss-reason" label={t(lang, 'console.integrity.dismissReason')}>
            <textarea id="dismiss-reason" name="reason" required maxlength={1000} rows={3} />
          </Field>
        </ActionForm>
      )}
    </ConsoleLayout>
  );
}

export interface FreezeConfirmProps {
  lang: Lang;
  areas: readonly ConsoleArea[];
  analysisId: string;
  cluster: Cluster;
  index: number;
  member: { kind: 'bot' | 'actor'; id: string };
  names: MemberNames;
  /** The rewards recipient whose payouts the member's are, or null (nothing to freeze). */
  recipient: { recipientId: string; frozen: boolean } | null;
}

/** The confirmation of a freeze: what it does, named before the button that does it. */
export function FreezeConfirmPage(props: FreezeConfirmProps) {
  const { lang, cluster, member } = props;
  const name = memberName(lang, props.names, cluster, member.id);
  const path = `/console/integrity/findings/${encodeURIComponent(props.analysisId)}/${encodeURIComponent(cluster.id)}`;
  const back = findingHref(props.analysisId, cluster.id, lang);
  const title = t(lang, 'console.integrity.freezeTitle', { name });
  return (
    <ConsoleLayout lang={lang} title={title} areas={props.areas} area="integrity" path={`${path}/freeze`}>
      <p>
        <a href={back}>{t(lang, 'console.integrity.backToFinding', { n: props.index + 1 })}</a>
      </p>
      <h1>
        <span title={member.id}>{title}</span>
      </h1>
      {!props.recipient ? (
        <p>{t(lang, 'console.integrity.noRecipient', { name })}</p>
      ) : props.recipient.frozen ? (
        <p>{t(lang, 'console.integrity.alreadyFrozen', { name })}</p>
      ) : (
        <>
          <p>{t(lang, member.kind === 'bot' ? 'console.integrity.freezeEffectBot' : 'console.integrity.freezeEffectReader', { name })}</p>
          <ActionForm
            lang={lang}
            action={`${path}/freeze`}
            back={back}
            submit={t(lang, 'console.integrity.freezeConfirm', { name })}
            danger
            class="console-form stacked"
          >
            <input type="hidden" name="member" value={`${member.kind}:${member.id}`} />
            <Field id="freeze-reason" label={t(lang, 'console.integrity.reason')}>
              <textarea id="freeze-reason" name="reason" required maxlength={1000} rows={3} />
            </Field>
          </ActionForm>
        </>
      )}
    </ConsoleLayout>
  );
}
