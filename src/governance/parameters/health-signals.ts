import type { ParameterName, Parameters } from './parameters.js';
import type { Signal } from './schemas.js';

/** Counts of one activity: the last hour, and the 24 hours before it. */
export interface HourlyCounts {
  lastHour: number;
  previous24Hours: number;
}

/**
 * A surge signal: the last hour's count against the hourly average of the 24 hours before it. It trips when
 * the last hour reaches both `ratio` × that average and the absolute `minimum` (so a quiet newsroom going
 * from 0 to 1 does not trip it).
 */
function surge(
  name: 'flagSurge' | 'objectionSpike',
  counts: HourlyCounts,
  p: Parameters,
  ratioName: ParameterName,
  minimumName: ParameterName,
): Signal {
  const previousHourlyAverage = counts.previous24Hours / 24;
  const ratio = p[ratioName];
  const minimum = p[minimumName];
  const required = Math.max(minimum, ratio * previousHourlyAverage);
  return {
    name,
    available: true,
    tripped: counts.lastHour >= required,
    lastHour: counts.lastHour,
    previous24Hours: counts.previous24Hours,
    previousHourlyAverage,
    threshold: { ratio, minimum, required, parameters: [ratioName, minimumName] },
  };
}

/** The latest cartel analysis as evaluate sees it (null before the first). */
export interface CollusionFinding {
  analysisId: string;
  analyzedAt: Date;
  flaggedClusters: number;
  flaggedMembers: number;
}

const FRESH_ANALYSIS_MS = 24 * 3_600_000;

/**
 * The collusion signal: the latest cartel analysis (POST /v1/admin/governance/cartel/analyze). It trips when
 * that analysis is at most 24 hours old and flagged at least `emergency.collusionMinMembers` members; an
 * older one is reported but cannot trip (run the analysis again to refresh it).
 */
function collusion(finding: CollusionFinding | null, p: Parameters, now: number): Signal {
  if (!finding) {
    return {
      name: 'collusion',
      available: false,
      tripped: false,
      reason: 'not measured yet: no cartel analysis has been stored (POST /v1/admin/governance/cartel/analyze)',
    };
  }
  const minimum = p['emergency.collusionMinMembers'];
  const fresh = now - finding.analyzedAt.getTime() <= FRESH_ANALYSIS_MS;
  return {
    name: 'collusion',
    available: true,
    tripped: fresh && finding.flaggedMembers >= minimum,
    collusion: {
      analysisId: finding.analysisId,
      analyzedAt: finding.analyzedAt.toISOString(),
      fresh,
      flaggedClusters: finding.flaggedClusters,
      flaggedMembers: finding.flaggedMembers,
      minimumMembers: minimum,
      parameters: ['emergency.collusionMinMembers'],
    },
  };
}

/**
 * Every health signal evaluate reports, in a fixed order: the two surges it measures from the database, the
 * payout signal, not measured (no payout anomaly measure is defined; suspect payouts are held by fraud review),
 * so a reader sees what was not looked at, and the collusion finding of the latest cartel analysis.
 */
export function healthSignals(
  counts: { flags: HourlyCounts; objections: HourlyCounts },
  p: Parameters,
  finding: CollusionFinding | null,
  now: number,
): Signal[] {
  return [
    surge('flagSurge', counts.flags, p, 'emergency.flagSurgeRatio', 'emergency.flagSurgeMinFlags'),
    surge('objectionSpike', counts.objections, p, 'emergency.objectionSpikeRatio', 'emergency.objectionSpikeMinObjections'),
    {
      name: 'payoutAnomalies',
      available: false,
      tripped: false,
      reason:
        'not measured yet: no payout anomaly measure is defined; suspect payouts are held by fraud review (GET /v1/admin/rewards/review-queue)',
    },
    collusion(finding, p, now),
  ];
}

/** One line per tripped signal, for a recommendation's reason. */
export function describeTripped(signals: Signal[]): string {
  return signals
    .filter((s) => s.tripped)
    .map((s) =>
      s.collusion
        ? `${s.name}: ${s.collusion.flaggedMembers} members in ${s.collusion.flaggedClusters} flagged clusters (analysis ${s.collusion.analysisId}, threshold ${s.collusion.minimumMembers})`
        : `${s.name}: ${s.lastHour} in the last hour (threshold ${s.threshold?.required}, hourly average before ${s.previousHourlyAverage?.toFixed(2)})`,
    )
    .join('; ');
}
