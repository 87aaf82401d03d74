import type { GovernanceTables } from '../tables.js';
import { identityKey } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { newId } from '../../platform/ids.js';
import { ActCollector } from './acts.js';
import { analyzeActs, DEFAULT_PARAMETERS, METHOD, type AnalysisParameters } from './cartel-analysis.js';
import type { Queryable } from '../../platform/db/database.js';
import * as analyses from './repository.js';
import { insertAnalysis } from './repository.js';
import type { WindowReader } from './interactions.js';
import type { Tx } from '../../platform/db/database.js';
import type { AnalysisResponse, AnalyzeBody } from './schemas.js';
import { appError, notFound } from '../../platform/errors.js';
import type { FindingActionRow, FlaggedMembers } from './repository.js';

const DAY_MS = 86_400_000;

/**
 * Cartel analysis: reads the interactions of the window as a stream into compact acts (acts.ts), finds the
 * clusters (cartel-analysis.ts), and stores the analysis with its flagged members as the finding in force
 * (consensus discount, evaluate's collusion signal, the rewards hold), audited. The answer is a pure function of the window's rows and the parameters;
 * only `analyzedAt` and `windowStart` name the time.
 */
/**
 * The interactions a cartel analysis reads, the newsroom's (reviews, revision votes, reward votes, flags and the
 * stories they name): integrity sits below the newsroom and reads none of its tables; the composition root wires
 * this port. `readWindow` is the first statement of the caller's transaction and makes it a read-only snapshot.
 */
export interface IntegrityInteractions {
  readWindow(tx: Tx<GovernanceTables>, from: Date, reader: WindowReader): Promise<void>;
}

export function createIntegrityService(deps: {
  transactor: Transactor<GovernanceTables>;
  clock: Clock;
  interactions: IntegrityInteractions;
}) {
  const { transactor, clock, interactions } = deps;

  /** A stored analysis as the route answered it, with its id and what was done about its findings. */
  async function present(q: Queryable<GovernanceTables>, id?: string) {
    const row = await analyses.storedAnalysis(q, id);
    if (!row) return null;
    const analysis: AnalysisResponse & { id: string } = {
      id: row.id,
      method: row.method,
      parameters: row.parameters as AnalysisResponse['parameters'],
      analyzedAt: row.analyzed_at.toISOString(),
      windowStart: row.window_start.toISOString(),
      summary: row.summary as AnalysisResponse['summary'],
      clusters: row.clusters as AnalysisResponse['clusters'],
    };
    return { analysis, actions: (await analyses.findingActions(q, row.id)).map(presentAction) };
  }

  /** The finding (one flagged cluster of one analysis), or 404. */
  async function finding(q: Queryable<GovernanceTables>, analysisId: string, clusterId: string) {
    const found = await present(q, analysisId);
    const index = found?.analysis.clusters.findIndex((c) => c.id === clusterId) ?? -1;
    if (!found || index < 0) throw notFound('finding');
    return { ...found, index, cluster: found.analysis.clusters[index]!, actions: found.actions.filter((a) => a.clusterId === clusterId) };
  }

  async function record(
    actor: HumanActor,
    ref: FindingRef,
    action: FindingActionRow['action'],
    fields: { reason: string; member?: { kind: 'bot' | 'actor'; id: string } | undefined; reference?: string | undefined },
  ) {
    return withTransaction(transactor, async (tx) => {
      const found = await finding(tx, ref.analysisId, ref.clusterId);
      if (fields.member && !found.cluster.evidence.members.some((m) => m.id === fields.member!.id && m.kind === fields.member!.kind))
        throw notFound('member of this finding');
      const at = new Date(clock.now());
      const row: FindingActionRow = {
        id: newId('fa'),
        analysis_id: ref.analysisId,
        cluster_id: ref.clusterId,
        action,
        member_kind: fields.member?.kind ?? null,
        member_id: fields.member?.id ?? null,
        reference: fields.reference ?? null,
        reason: fields.reason,
        acted_by: identityKey(actor),
        acted_at: at,
      };
      if (!(await analyses.insertFindingAction(tx, row))) throw appError('FINDING_ALREADY_DISMISSED');
      await appendAudit(tx, {
        scope: 'GOVERNANCE',
        action: `cartel.finding.${action === 'DISMISSED' ? 'dismissed' : action === 'CASE_OPENED' ? 'case_opened' : 'member_frozen'}`,
        actor,
        target: `${ref.analysisId}/${ref.clusterId}`,
        details: {
          reason: fields.reason,
          ...(fields.member ? { member: fields.member } : {}),
          ...(fields.reference ? { reference: fields.reference } : {}),
        },
        at,
      });
      return presentAction(row);
    });
  }

  return {
    /** The latest analysis with what was done about its findings; null before the first. */
    async latest() {
      return present(transactor.db);
    },

    /** One finding with what was done about it (404 for an unknown analysis or cluster). */
    async finding(analysisId: string, clusterId: string) {
      return finding(transactor.db, analysisId, clusterId);
    },

    /** Dismisses a finding with a reason (409 FINDING_ALREADY_DISMISSED the second time), audited. */
    async dismiss(actor: HumanActor, ref: FindingRef, reason: string) {
      return record(actor, ref, 'DISMISSED', { reason });
    },

    /**
     * Links what an admin did in rewards about a finding to it, audited: the review case opened for it, or the
     * recipient whose payouts were frozen for one of its members (the member must belong to the finding).
     */
    async linkAction(
      actor: HumanActor,
      ref: FindingRef,
      action: 'CASE_OPENED' | 'FROZEN',
      fields: { reason: string; reference: string; member?: { kind: 'bot' | 'actor'; id: string } },
    ) {
      return record(actor, ref, action, fields);
    },

    /**
     * Which flagged cluster of an analysis (the latest when none is named) each bot, actor and linked human
     * belongs to, with the cluster's number: what links a discounted story or a held payout to its finding.
     */
    async flaggedMembers(analysisId?: string): Promise<FlaggedMembers> {
      return analyses.flaggedInAnalysis(transactor.db, analysisId);
    },

    /** The flagged clusters of the latest analysis nobody dismissed (the console's home counts them). */
    async waitingFindings(): Promise<number> {
      return analyses.undismissedFindings(transactor.db);
    },

    async analyze(actor: HumanActor, body: AnalyzeBody): Promise<AnalysisResponse> {
      const now = clock.now();
      const parameters: AnalysisParameters = {
        ...DEFAULT_PARAMETERS,
        windowDays: body.windowDays ?? DEFAULT_PARAMETERS.windowDays,
        minClusterSize: body.minClusterSize ?? DEFAULT_PARAMETERS.minClusterSize,
      };
      const analyzedAt = new Date(now);
      const windowStart = new Date(now - parameters.windowDays * DAY_MS);
      // the window streams into compact acts in one read-only snapshot; the analysis runs after it has closed
      const collector = new ActCollector();
      await withTransaction(transactor, (tx) => interactions.readWindow(tx, windowStart, collector));
      const { summary, clusters } = analyzeActs(collector.finish(), parameters);
      const id = newId('ca');
      await withTransaction(transactor, async (tx) => {
        await insertAnalysis(tx, {
          id,
          method: METHOD,
          parameters: { ...parameters },
          windowStart,
          analyzedAt,
          analyzedBy: identityKey(actor),
          clusters: clusters.map((c) => ({
            id: c.id,
            score: c.score,
            members: c.evidence.members.map((m) => ({ id: m.id, kind: m.kind })),
          })),
          fullClusters: clusters,
          summary: { ...summary },
        });
        await appendAudit(tx, {
          scope: 'GOVERNANCE',
          action: 'cartel.analyzed',
          actor,
          target: id,
          details: { method: METHOD, parameters, clusters: clusters.map((c) => ({ id: c.id, members: c.members, score: c.score })) },
          at: analyzedAt,
        });
      });
      return {
        method: METHOD,
        parameters,
        analyzedAt: analyzedAt.toISOString(),
        windowStart: windowStart.toISOString(),
        summary,
        clusters,
      };
    },
  };
}

export interface FindingRef {
  analysisId: string;
  clusterId: string;
}

/** What was done about a finding, as pages show it. */
export function presentAction(row: FindingActionRow) {
  return {
    id: row.id,
    analysisId: row.analysis_id,
    clusterId: row.cluster_id,
    action: row.action,
    member: row.member_kind && row.member_id ? { kind: row.member_kind, id: row.member_id } : null,
    reference: row.reference,
    reason: row.reason,
    actedBy: row.acted_by,
    actedAt: row.acted_at.toISOString(),
  };
}
export type FindingAction = ReturnType<typeof presentAction>;

/*
 * The reads of the latest cartel analysis that integrity offers other modules: the emergency health signals,
 * consensus's cluster discount and the settlements' cartel holds. Each reads through the caller's database or
 * transaction, so that it sees what the caller's other reads see.
 */

/**
 * The bots that share a flagged cluster of the latest analysis with `botId`, and that analysis's id, as SQL the
 * caller's statement embeds (consensus's cluster discount reads them inside its transaction, in one statement).
 */
export const clusterMatesInLatestAnalysis = (botId: string) => analyses.clusterMatesSql(botId);

/** The latest analysis: its id, time and how much it flagged; null before the first. */
export async function latestAnalysisSummary(q: Queryable<GovernanceTables>) {
  return analyses.latestAnalysis(q);
}

/**
 * The members of the flagged clusters of the latest analysis, as payouts name people, each with its cluster:
 * flagged bots by bot id, flagged actors by actor id and by the linked human each is bound to.
 */
export async function flaggedInLatestAnalysis(q: Queryable<GovernanceTables>): Promise<FlaggedMembers> {
  return analyses.flaggedInAnalysis(q);
}
