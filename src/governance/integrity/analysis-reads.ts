import type { Queryable } from '../../platform/db/database.js';
import * as analyses from './repository.js';

/**
 * The reads of the latest cartel analysis that integrity offers other modules: the emergency health signals,
 * consensus's cluster discount and the settlements' cartel holds. Each reads through the caller's database or
 * transaction, so that it sees what the caller's other reads see.
 */

/** The latest analysis: its id, time and how much it flagged; null before the first. */
export async function latestAnalysisSummary(q: Queryable) {
  return analyses.latestAnalysis(q);
}

/**
 * Attestations on a packet by bots that share a flagged cluster of the latest analysis with the story's
 * author: the attestations the cluster discount applies to.
 */
export async function attestationsInsideAuthorCluster(
  q: Queryable,
  story: { id: string; packetHash: string; authorBotId: string },
): Promise<{ analysisId: string | null; count: number; weight: number }> {
  return analyses.attestationsInsideAuthorCluster(q, story);
}

/**
 * The members of the flagged clusters of the latest analysis, as payouts name people: flagged bots by bot id,
 * flagged actors by actor id and by the linked human each is bound to.
 */
export async function flaggedInLatestAnalysis(
  q: Queryable,
): Promise<{ analysisId: string | null; bots: Set<string>; people: Set<string> }> {
  return analyses.flaggedInLatestAnalysis(q);
}
