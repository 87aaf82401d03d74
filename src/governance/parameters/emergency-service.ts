import type { GovernanceTables } from '../tables.js';
import { identityKey, onAllowlist, type AllowlistSubject } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Tx } from '../../platform/db/database.js';
import { withTransaction } from '../../platform/db/transaction.js';
import { appError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { EMERGENCY_TARGET, passControlPlaneGate } from '../control-plane/gate.js';
import { latestAnalysisSummary } from '../integrity/service.js';
import { describeTripped, healthSignals } from './health-signals.js';
import { emergencyOverlay, overlayParameters, type Parameters } from './parameters.js';
import { presentEmergency } from './presenter.js';
import { clearEmergency, findActiveEmergency, insertEmergency, lastClearedEmergency, lockGovernance, parameterRows } from './repository.js';
import type { ClearBody, ClearResponse, EmergencyState, EvaluateBody, EvaluationResponse, RecommendedAction, Signal } from './schemas.js';
import type { GovernanceDeps } from './service.js';

const HOUR_MS = 3_600_000;

/**
 * Health evaluation and emergency measures. Evaluate measures the signals (health-signals.ts) from the
 * database. With the explicit control plane off it applies the emergency measures itself when a signal trips;
 * with it on it applies nothing unless handed an EXECUTED governance.emergency.apply request, and otherwise
 * answers the control-plane requests it recommends. Emergency measures are an overlay of raised thresholds
 * (parameters.ts emergencyOverlay) that readParameters lays over the parameters until the emergency is cleared.
 */
/**
 * What the health signals count of the newsroom's activity, in [from, to): governance sits below the newsroom and
 * reads none of its tables; the composition root wires this port to the newsroom's flags and reviews.
 */
export interface HealthCounts {
  flags(from: Date, to: Date): Promise<number>;
  objections(from: Date, to: Date): Promise<number>;
}

export function createEmergencyService(deps: Omit<GovernanceDeps, 'verifier' | 'proofs'> & { counts: HealthCounts }) {
  const { db, transactor, clock, config, defaults, counts } = deps;
  const explicit = config.controlPlane.explicitEnabled;

  async function measure(now: number): Promise<{ signals: Signal[]; base: Parameters }> {
    const lastHour = new Date(now - HOUR_MS);
    const dayBefore = new Date(now - 25 * HOUR_MS);
    const to = new Date(now);
    const [rows, flagsLast, flagsBefore, objectionsLast, objectionsBefore, analysis] = await Promise.all([
      parameterRows(db),
      counts.flags(lastHour, to),
      counts.flags(dayBefore, lastHour),
      counts.objections(lastHour, to),
      counts.objections(dayBefore, lastHour),
      latestAnalysisSummary(db),
    ]);
    const finding = analysis && {
      analysisId: analysis.id,
      analyzedAt: analysis.analyzed_at,
      flaggedClusters: analysis.cluster_count,
      flaggedMembers: analysis.member_count,
    };
    const values = overlayParameters(defaults, rows);
    const signals = healthSignals(
      {
        flags: { lastHour: flagsLast, previous24Hours: flagsBefore },
        objections: { lastHour: objectionsLast, previous24Hours: objectionsBefore },
      },
      values.effective,
      finding,
      now,
    );
    return { signals, base: values.base };
  }

  /** Starts an emergency with `overlay` (the caller holds the governance lock and has checked none is active). */
  async function startEmergency(
    tx: Tx<GovernanceTables>,
    actor: HumanActor,
    overlay: Partial<Parameters>,
    signals: Signal[],
    requestId: string | null,
    at: Date,
  ) {
    const row = await insertEmergency(tx, {
      id: newId('em'),
      status: 'ACTIVE',
      overlay: JSON.stringify(overlay),
      signals: JSON.stringify(signals),
      activated_by: identityKey(actor),
      activated_at: at,
      activation_request_id: requestId,
    });
    await appendAudit(tx, {
      scope: 'GOVERNANCE',
      action: 'emergency.applied',
      actor,
      target: row.id,
      details: { overlay, tripped: signals.filter((s) => s.tripped).map((s) => s.name), signals, controlPlaneRequestId: requestId },
      at,
    });
    return { emergencyId: row.id, overlay: row.overlay, controlPlaneRequestId: requestId };
  }

  async function emergencyState() {
    const [active, lastCleared] = await Promise.all([findActiveEmergency(db), lastClearedEmergency(db)]);
    return presentEmergency(active, lastCleared);
  }

  return {
    /** The health signals measured now, with their thresholds: what evaluate would see, nothing applied. */
    async signals(who: AllowlistSubject): Promise<Signal[]> {
      if (!onAllowlist(config.contentAdminIds, who)) throw appError('CONTENT_ADMIN_REQUIRED');
      return (await measure(clock.now())).signals;
    },

    /**
     * Measures the health signals and answers them with their numbers and thresholds. Explicit control plane
     * off: a tripped signal with no emergency active starts one (mutatingApplied: true). On: nothing is applied
     * (mutatingApplied: false) and the answer recommends ready-to-file requests; given the id of an EXECUTED
     * governance.emergency.apply request whose payload is the measures recommended now, it applies them and
     * consumes the request.
     */
    async evaluate(actor: HumanActor, body: EvaluateBody): Promise<EvaluationResponse> {
      const now = clock.now();
      const { signals, base } = await measure(now);
      const tripped = signals.filter((s) => s.tripped).map((s) => s.name);
      const overlay = emergencyOverlay(base);
      const at = new Date(now);
      const answer = async (
        fields: Pick<EvaluationResponse, 'mutatingApplied' | 'applied' | 'recommendedControlPlaneActions'> & { note?: string },
        emergency?: EmergencyState,
      ) => ({
        evaluatedAt: at.toISOString(),
        explicitControlPlane: explicit,
        signals,
        tripped,
        ...fields,
        emergency: emergency ?? (await emergencyState()),
      });

      if (body.controlPlaneRequestId !== undefined || (!explicit && tripped.length > 0)) {
        if (tripped.length === 0) throw appError('GOVERNANCE_EMERGENCY_NOT_WARRANTED');
        const requestId = body.controlPlaneRequestId;
        const applied = await withTransaction(transactor, async (tx) => {
          await lockGovernance(tx);
          const active = await findActiveEmergency(tx);
          if (active) {
            if (requestId !== undefined)
              throw appError('GOVERNANCE_EMERGENCY_ACTIVE', { message: `Emergency ${active.id} is already active` });
            return null;
          }
          const consumed = await passControlPlaneGate(tx, {
            explicit,
            requestId,
            expected: { action: 'governance.emergency.apply', target: EMERGENCY_TARGET, payload: { overlay } },
            actor,
            at,
          });
          return startEmergency(tx, actor, overlay, signals, consumed, at);
        });
        if (!applied)
          return answer({
            mutatingApplied: false,
            applied: null,
            recommendedControlPlaneActions: [],
            note: 'an emergency is already active: nothing more was applied',
          });
        return answer({ mutatingApplied: true, applied, recommendedControlPlaneActions: [] });
      }

      const emergency = await emergencyState();
      const recommended: RecommendedAction[] = [];
      if (explicit && tripped.length > 0 && !emergency.active) {
        recommended.push({
          action: 'governance.emergency.apply',
          target: EMERGENCY_TARGET,
          payload: { overlay },
          reason: `Health signals tripped: ${describeTripped(signals)}`,
        });
      }
      if (explicit && tripped.length === 0 && emergency.id) {
        recommended.push({
          action: 'governance.emergency.clear',
          target: EMERGENCY_TARGET,
          payload: { emergencyId: emergency.id },
          reason: `No health signal trips any more; emergency ${emergency.id} can be cleared`,
        });
      }
      return answer({ mutatingApplied: false, applied: null, recommendedControlPlaneActions: recommended }, emergency);
    },

    /**
     * Returns to normal: the active emergency's overlay stops applying (the row is kept as CLEARED), audited.
     * With the explicit control plane on it needs an EXECUTED governance.emergency.clear request whose payload
     * names this emergency ({ emergencyId }).
     */
    async clear(actor: HumanActor, body: ClearBody): Promise<ClearResponse> {
      const result = await withTransaction(transactor, async (tx) => {
        const at = new Date(clock.now());
        await lockGovernance(tx);
        const active = await findActiveEmergency(tx);
        if (!active) throw appError('GOVERNANCE_NO_EMERGENCY');
        const controlPlaneRequestId = await passControlPlaneGate(tx, {
          explicit,
          requestId: body.controlPlaneRequestId,
          expected: { action: 'governance.emergency.clear', target: EMERGENCY_TARGET, payload: { emergencyId: active.id } },
          actor,
          at,
        });
        const row = await clearEmergency(tx, active.id, {
          clearedBy: identityKey(actor),
          at,
          reason: body.reason ?? null,
          requestId: controlPlaneRequestId,
        });
        await appendAudit(tx, {
          scope: 'GOVERNANCE',
          action: 'emergency.cleared',
          actor,
          target: row.id,
          details: { overlay: row.overlay, reason: row.clear_reason, controlPlaneRequestId },
          at,
        });
        return {
          cleared: {
            id: row.id,
            overlay: row.overlay,
            activatedAt: row.activated_at.toISOString(),
            clearedAt: at.toISOString(),
            clearedBy: identityKey(actor),
            reason: row.clear_reason,
          },
          controlPlaneRequestId,
        };
      });
      return { ...result, emergency: await emergencyState() };
    },
  };
}
