import type { Config } from '../../config.js';
import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, Tx } from '../../platform/db/database.js';
import type { IdentityTables } from '../tables.js';
import { withTransaction, type Transactor, type TxEvents } from '../../platform/db/transaction.js';
import { appError, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recordVerifiedHumanAction } from './human-actions.js';
import { GOVERNANCE_ACTION_FORMATS, parseGovernanceAction, type GovernanceAction } from './policy.js';
import { canonicalNullifier, isAmbiguousSignal, linkedHumanIdOf, worldIdSignalHash } from './proof-fields.js';
import { TIER_OF_PROVIDER, type HumanProofVerifier, type ProofProvider } from './proof-verifier.js';
import {
  bindActorAtLogin,
  endLoginSession,
  claimLoginChallenge,
  findActorBinding,
  actorsOfHumans,
  findBoundTier,
  findLoginChallenge,
  insertLoginChallenge,
  isNullifierUsed,
  expiredChallengeRows,
  raiseHumanTier,
  renewActorBinding,
} from './repository.js';
import type { HumanProofVerifyBody, LoginVerifyBody } from './schemas.js';

/** A login challenge lives 5 minutes; expired ones are deleted an hour later. */
const CHALLENGE_TTL_MS = 5 * 60_000;
export const CHALLENGE_PRUNE_AFTER_MS = 60 * 60_000;

type ProofBody = Pick<HumanProofVerifyBody, 'nullifier_hash' | 'merkle_root' | 'proof' | 'verification_level'>;

/**
 * A story's stage and moderation status as identity sees them: the newsroom's values (its rows.ts), spelled here
 * because identity sits below the newsroom and imports none of it. The composition root hands the newsroom's
 * stories to this port, so a value the newsroom adds fails to compile there until it is spelled here too.
 */
type PublicationStage = 'CANDIDATE' | 'PROVISIONAL' | 'GRADUATED';
type ModerationStatus = 'PENDING_SCAN' | 'ALLOWED' | 'QUARANTINED' | 'BLOCKED';

/**
 * What verified human actions need from the stories they name. Identity sits below the newsroom and imports
 * none of it: the composition root wires this port to the newsroom's stories and consensus.
 */
export interface ActionStory {
  id: string;
  publication_stage: PublicationStage;
  moderation_status: ModerationStatus;
}

export interface ActionStories {
  /** A story by id with what decides whether readers may act on it (published, visible), or null. */
  find(storyId: string): Promise<ActionStory | null>;
  /** The stories whose current packet has a claim with this id (at most 20). */
  ofCurrentClaim(claimId: string): Promise<ActionStory[]>;
  /** Whether readers can see a story (one hidden by moderation does not exist for them). */
  canRead(story: { moderation_status: ModerationStatus }): boolean;
  /**
   * A `graduate:<storyId>` action inside its transaction: locks the story first, as every story writer does
   * (404 when readers cannot see it), runs `record` (the action's own writes), then offers a PROVISIONAL story
   * to its consensus at `at`, so that a story that already meets the gate graduates in the same transaction.
   */
  onGraduateAction<T>(tx: Tx<IdentityTables>, events: TxEvents, storyId: string, at: Date, record: () => Promise<T>): Promise<T>;
}

export interface IdentityServiceDeps {
  db: Db<IdentityTables>;
  transactor: Transactor<IdentityTables>;
  clock: Clock;
  config: Pick<Config, 'worldIdLoginAction' | 'worldIdSessionTtlSeconds'>;
  verifier: HumanProofVerifier;
  stories: ActionStories;
}

/**
 * World ID login (challenge, then proof), and the verified human actions that governance operations accept
 * once. Proofs are checked before any transaction opens (a provider call never holds a lock), and what a
 * proof grants is then written in one transaction whose constraints decide races: the challenge's
 * conditional UPDATE, the unique (provider, action, nullifier_hash), the conditional binding upserts.
 */
export function createIdentityService(deps: IdentityServiceDeps) {
  const { db, transactor, clock, config, verifier, stories } = deps;
  const sessionEnd = (now: Date) => new Date(now.getTime() + config.worldIdSessionTtlSeconds * 1000);

  function nullifierOf(provider: ProofProvider, nullifierHash: string): string {
    const canonical = canonicalNullifier(provider, nullifierHash);
    if (!canonical)
      throw validationFailed([
        { path: '/nullifier_hash', message: 'a World ID nullifier_hash is hex: 0x followed by up to 64 hex characters' },
      ]);
    return canonical;
  }

  const proofOf = (provider: ProofProvider, action: string, nullifierHash: string, body: ProofBody, signalHash: string) => ({
    provider,
    action,
    nullifierHash,
    merkleRoot: body.merkle_root,
    proof: body.proof,
    verificationLevel: body.verification_level,
    signalHash,
  });

  /** 404 unless the action's target exists: a published story readers can see, or a claim of one's current packet. */
  async function requireTarget(action: GovernanceAction): Promise<void> {
    if (action.kind === 'flag_high_severity') {
      const claimed = await stories.ofCurrentClaim(action.claimId);
      if (!claimed.some((s) => stories.canRead(s) && s.publication_stage !== 'CANDIDATE')) throw notFound('claim');
      return;
    }
    const story = await stories.find(action.storyId);
    // readers react only to published stories: a candidate is not there for them yet
    if (!story || !stories.canRead(story) || story.publication_stage === 'CANDIDATE') throw notFound('story');
  }

  return {
    /** The tier of `linkedHumanId` when `actorId` is bound to it now (the auth hook's lookup), else null. */
    boundTier: (actorId: string, linkedHumanId: string) => findBoundTier(db, actorId, linkedHumanId, new Date(clock.now())),

    /** The actors bound to each of these linked humans, most recently bound first (pages name people by them). */
    async actorsOf(linkedHumanIds: readonly string[]): Promise<Map<string, string[]>> {
      const byHuman = new Map<string, string[]>();
      for (const row of await actorsOfHumans(db, linkedHumanIds)) {
        const list = byHuman.get(row.linked_human_id) ?? [];
        list.push(row.actor_id);
        byHuman.set(row.linked_human_id, list);
      }
      return byHuman;
    },

    /** A single-use login challenge for the signing actor: the signal and action to give IDKit. */
    async createLoginChallenge(actor: HumanActor) {
      const now = new Date(clock.now());
      const id = newId('wch');
      const signal = `login:${id}`;
      const challenge = {
        id,
        actor_id: actor.actorId,
        action: config.worldIdLoginAction,
        signal,
        signal_hash: worldIdSignalHash(signal),
        created_at: now,
        expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS),
      };
      await expiredChallengeRows.prune(db, new Date(now.getTime() - CHALLENGE_PRUNE_AFTER_MS), 100);
      await insertLoginChallenge(db, challenge);
      return {
        challengeId: id,
        signal,
        signalHash: challenge.signal_hash,
        action: challenge.action,
        expiresAt: challenge.expires_at.toISOString(),
      };
    },

    /**
     * Completes a login: the challenge must be the actor's own, unused and unexpired, and the World ID proof
     * valid for the login action and the challenge's signal. The person's linkedHumanId (from the login
     * nullifier) is recorded at L3 and the actor bound to it for a session; a live binding of the actor to
     * another World ID human is kept (409 ACTOR_BOUND_TO_OTHER_HUMAN).
     */
    async verifyLogin(actor: HumanActor, body: LoginVerifyBody) {
      if (body.action !== undefined && body.action !== config.worldIdLoginAction) {
        throw appError('HUMAN_ACTION_NOT_ALLOWED', {
          message: `The login accepts only the login action ${config.worldIdLoginAction}`,
          details: [
            {
              path: '/action',
              message: `must be ${config.worldIdLoginAction} (or omitted); governance actions go to POST /v1/worldid/verify`,
            },
          ],
        });
      }
      const nullifierHash = nullifierOf('world_id', body.nullifier_hash);
      const challenge = await findLoginChallenge(db, body.challengeId);
      // another actor's challenge does not exist for this one
      if (!challenge || challenge.actor_id !== actor.actorId) throw notFound('login challenge');
      if (challenge.used_at) throw appError('CHALLENGE_USED');
      if (challenge.expires_at.getTime() <= clock.now()) throw appError('CHALLENGE_EXPIRED');
      await verifier.verify(proofOf('world_id', challenge.action, nullifierHash, body, challenge.signal_hash));

      const linkedHumanId = linkedHumanIdOf('world_id', nullifierHash);
      const now = new Date(clock.now());
      const sessionExpiresAt = sessionEnd(now);
      return withTransaction(transactor, async (tx) => {
        await raiseHumanTier(tx, linkedHumanId, 'L3', 'world_id', now);
        if (!(await claimLoginChallenge(tx, challenge.id, linkedHumanId, now))) {
          const current = await findLoginChallenge(tx, challenge.id);
          throw appError(current?.used_at ? 'CHALLENGE_USED' : 'CHALLENGE_EXPIRED');
        }
        if (!(await bindActorAtLogin(tx, actor.actorId, linkedHumanId, now, sessionExpiresAt)))
          throw appError('ACTOR_BOUND_TO_OTHER_HUMAN');
        return { linkedHumanId, tier: 'L3' as const, sessionExpiresAt: sessionExpiresAt.toISOString() };
      });
    },

    /**
     * A front end's login hand-over. A login needs an actorId before the person is known, so a front end that
     * keeps one account per person logs them in under a fresh actorId `from`, learns who they are, and hands
     * the login over to the account it keeps for that person (`to`): `to` is bound to the same linked human
     * until the same session end, and the session of `from` ends now. Only a live World ID login session of
     * `from` to `linkedHumanId` can be handed over (403 LINKED_HUMAN_NOT_BOUND otherwise); a live binding of
     * `to` to another World ID human is kept (409 ACTOR_BOUND_TO_OTHER_HUMAN). Nothing is proven here that the
     * login did not prove: the same person, the same session end.
     */
    async handOverLogin(from: string, to: string, linkedHumanId: string) {
      const now = new Date(clock.now());
      return withTransaction(transactor, async (tx) => {
        const sessionExpiresAt = await endLoginSession(tx, from, linkedHumanId, now);
        if (!sessionExpiresAt) throw appError('LINKED_HUMAN_NOT_BOUND');
        if (!(await bindActorAtLogin(tx, to, linkedHumanId, now, sessionExpiresAt))) throw appError('ACTOR_BOUND_TO_OTHER_HUMAN');
        return { sessionExpiresAt: sessionExpiresAt.toISOString() };
      });
    },

    /**
     * Records a verified human action (`graduate:`, `reward:`, `flag_high_severity:`) proven with `provider`.
     * The action is recorded for the actor's bound linkedHumanId, so that the personal operations (a HIGH
     * flag, a reward vote) accept it only from that human. An actor without a binding may prove itself with a
     * secondary provider, which records a new L2 human (`h_` + SHA-256 of provider:nullifier) and binds the
     * actor to it; World ID proofs need a login first (403 HUMAN_LOGIN_REQUIRED), because only the login
     * nullifier names the same person every time. The human's tier is raised to the provider's, never lowered,
     * and the binding's session moves on. A `graduate:` action is offered to the story's consensus at once: a
     * story that already meets the gate graduates in the same transaction, consuming it.
     */
    async verifyHumanAction(actor: HumanActor, provider: ProofProvider, body: ProofBody & { action: string; signal?: string | undefined }) {
      const action = parseGovernanceAction(body.action);
      if (!action) {
        throw appError('HUMAN_ACTION_NOT_ALLOWED', {
          message: `This route accepts the actions ${GOVERNANCE_ACTION_FORMATS.join(', ')}`,
          details: [{ path: '/action', message: `must be one of ${GOVERNANCE_ACTION_FORMATS.join(', ')}` }],
        });
      }
      if (body.signal !== undefined && isAmbiguousSignal(body.signal)) {
        throw validationFailed([{ path: '/signal', message: 'a signal starting with 0x must be whole bytes of hex' }]);
      }
      const nullifierHash = nullifierOf(provider, body.nullifier_hash);
      await requireTarget(action);
      const binding = await findActorBinding(db, actor.actorId);
      if (!binding && provider === 'world_id') throw appError('HUMAN_LOGIN_REQUIRED');
      const linkedHumanId = binding?.linked_human_id ?? linkedHumanIdOf(provider, nullifierHash);
      // a proof already recorded is refused before the provider is asked (the unique key still decides races)
      if (await isNullifierUsed(db, provider, body.action, nullifierHash)) throw appError('NULLIFIER_REUSED');
      await verifier.verify(
        proofOf(provider, body.action, nullifierHash, body, body.signal === undefined ? '' : worldIdSignalHash(body.signal)),
      );

      const now = new Date(clock.now());
      return withTransaction(transactor, async (tx, events) => {
        const record = async () => {
          const id = await recordVerifiedHumanAction(tx, { action: body.action, linkedHumanId, provider, nullifierHash, at: now });
          const tier = await raiseHumanTier(tx, linkedHumanId, TIER_OF_PROVIDER[provider], provider, now);
          const session = await renewActorBinding(tx, actor.actorId, linkedHumanId, now, sessionEnd(now));
          if (!session) throw appError('ACTOR_BOUND_TO_OTHER_HUMAN');
          return {
            id,
            action: body.action,
            provider,
            linkedHumanId,
            tier,
            sessionExpiresAt: session.expires_at ? session.expires_at.toISOString() : null,
            createdAt: now.toISOString(),
          };
        };
        // a graduate action locks its story before its own writes (one lock order, no deadlock)
        return action.kind === 'graduate' ? stories.onGraduateAction(tx, events, action.storyId, now, record) : record();
      });
    },
  };
}
