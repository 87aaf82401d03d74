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

/**
 * Every health signal evaluate reports, in a fixed order: the two it measures from the database and the
 * two that do not exist yet (they come with later issues), so a reader sees what was not looked at.
 */
export function healthSignals(counts: { flags: HourlyCounts; objections: HourlyCounts }, p: Parameters): Signal[] {
  return [
    surge('flagSurge', counts.flags, p, 'emergency.flagSurgeRatio', 'emergency.flagSurgeMinFlags'),
    surge('objectionSpike', counts.objections, p, 'emergency.objectionSpikeRatio', 'emergency.objectionSpikeMinObjections'),
    {
      name: 'payoutAnomalies',
      available: false,
      tripped: false,
      reason: 'not measured yet: payouts and settlements come with the rewards issue',
    },
    {
      name: 'collusion',
      available: false,
      tripped: false,
      reason: 'not measured yet: the collusion finding comes with cartel analysis (POST /v1/admin/governance/cartel/analyze)',
    },
  ];
}

/** One line per tripped signal, for a recommendation's reason. */
export function describeTripped(signals: Signal[]): string {
  return signals
    .filter((s) => s.tripped)
    .map(
      (s) =>
        `${s.name}: ${s.lastHour} in the last hour (threshold ${s.threshold?.required}, hourly average before ${s.previousHourlyAverage?.toFixed(2)})`,
    )
    .join('; ');
}
