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
  return {
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

/*
 * The reads of the latest cartel analysis that integrity offers other modules: the emergency health signals,
 * consensus's cluster discount and the settlements' cartel holds. Each reads through the caller's database or
 * transaction, so that it sees what the caller's other reads see.
 */

/** The latest analysis: its id, time and how much it flagged; null before the first. */
export async function latestAnalysisSummary(q: Queryable<GovernanceTables>) {
  return analyses.latestAnalysis(q);
}

/**
 * The members of the flagged clusters of the latest analysis, as payouts name people: flagged bots by bot id,
 * flagged actors by actor id and by the linked human each is bound to.
 */
export async function flaggedInLatestAnalysis(
  q: Queryable<GovernanceTables>,
): Promise<{ analysisId: string | null; bots: Set<string>; people: Set<string> }> {
  return analyses.flaggedInLatestAnalysis(q);
}
