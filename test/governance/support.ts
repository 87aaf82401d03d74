import { randomBytes } from 'node:crypto';
import { createServiceClient, type ServiceResponse } from '../../sdk/index.js';
import { devProof, type ProofProvider } from '../../src/identity/humans/proof-verifier.js';
import { createTestApp, TEST_SECRET, type Env, type TestDatabase } from '../helpers/app.js';
import { bindActor } from '../helpers/identity.js';
import { newsroomFactory } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

/**
 * The people of the governance and control-plane tests, each a front-end actor bound to a linked human (as a
 * World ID login leaves them): two content admins, three control-plane approvers (the first admin is an
 * approver too, to play a requester approving their own request) and a plain verified reader.
 */
export const PEOPLE = {
  admin: { actorId: 'gov-admin', linkedHumanId: 'h_admin' },
  admin2: { actorId: 'gov-admin-2', linkedHumanId: 'h_admin2' },
  approver1: { actorId: 'approver-1', linkedHumanId: 'h_approver1' },
  approver2: { actorId: 'approver-2', linkedHumanId: 'h_approver2' },
  approver3: { actorId: 'approver-3', linkedHumanId: 'h_approver3' },
  reader: { actorId: 'reader-1', linkedHumanId: 'h_reader' },
} as const;
export type Person = keyof typeof PEOPLE;

export const GOVERNANCE_ENV: Env = {
  CONTENT_ADMIN_IDS: 'h_admin,h_admin2',
  // ops-approver is allowlisted by actorId (an approver who signs without a linkedHumanId)
  CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: 'h_approver1,h_approver2,h_approver3,h_admin,ops-approver',
  // the tests sign many requests per actor
  RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '100000',
  RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
};

/** A listening app with the people bound, and an SDK client that signs as them. */
export async function governanceApp(env: Env = {}, shared?: TestDatabase) {
  const t = await createTestApp({ ...GOVERNANCE_ENV, ...env }, shared);
  for (const p of Object.values(PEOPLE)) await bindActor(t.db.database, p.actorId, p.linkedHumanId, 'L3');
  const client = createServiceClient({ baseUrl: await t.listen() });
  const as = (who: Person, verified = true) => ({ ...PEOPLE[who], verified });
  return {
    t,
    client,
    as,
    /** A signed write as `who` (verified unless the body says otherwise). */
    post<T = Record<string, unknown>>(who: Person, path: string, body: Record<string, unknown> = {}): Promise<ServiceResponse<T>> {
      return client.humanWrite<T>(TEST_SECRET, path, { ...as(who), ...body });
    },
    /** A signed read as `who`. */
    get<T = Record<string, unknown>>(
      who: Person,
      path: string,
      query: Record<string, string | undefined> = {},
    ): Promise<ServiceResponse<T>> {
      return client.humanRead<T>(TEST_SECRET, path, {
        actorId: PEOPLE[who].actorId,
        verified: 'true',
        linkedHumanId: PEOPLE[who].linkedHumanId,
        ...query,
      });
    },
  };
}
export type GovernanceApp = Awaited<ReturnType<typeof governanceApp>>;

/** Human proof fields in the dev verifier's format (docs/api-conventions.md, "Human proofs"), for `action` (a fresh nullifier unless given). */
export function proofFor(action: string, options: { provider?: ProofProvider; nullifier?: string; tamper?: boolean } = {}) {
  const provider = options.provider ?? 'world_id';
  const nullifierHash = options.nullifier ?? `0x${randomBytes(16).toString('hex')}`;
  const merkleRoot = `0x${randomBytes(16).toString('hex')}`;
  const proof = devProof({ provider, action, nullifierHash, merkleRoot, signalHash: '' });
  return {
    ...(options.provider ? { provider } : {}),
    nullifier_hash: nullifierHash,
    merkle_root: merkleRoot,
    proof: options.tamper ? proof.replace(/^./, (c) => (c === '0' ? '1' : '0')) : proof,
    verification_level: 'orb',
    action,
  };
}

/** Proposes `changes` as the admin and answers the proposal. */
export async function propose(
  g: GovernanceApp,
  changes: Record<string, number>,
  title = 'Tune thresholds',
): Promise<Json & { id: string; status: string }> {
  const res = await g.post<Json & { id: string; status: string }>('admin', '/v1/admin/governance/proposals', {
    title,
    rationale: 'Testing the life cycle',
    changes,
  });
  if (res.status !== 202) throw new Error(`propose: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Ratifies a proposal as the admin with a fresh proof. */
export async function ratify(g: GovernanceApp, id: string, extra: Json = {}) {
  return g.post<Json & { status: string; code?: string }>('admin', `/v1/admin/governance/proposals/${id}/ratify`, {
    ...proofFor(`governance_ratify:${id}`),
    ...extra,
  });
}

/** Files a control-plane request as the admin. */
export async function fileRequest(
  g: GovernanceApp,
  request: { action: string; target: string; payload: Json; reason?: string },
  who: Person = 'admin',
) {
  return g.post<Json & { id: string; status: string; code?: string }>(who, '/v1/admin/control-plane/requests', {
    reason: 'two-person change',
    ...request,
  });
}

/** Approves a request as `who` with a fresh proof bound to it. */
export async function approve(
  g: GovernanceApp,
  who: Person,
  requestId: string,
  proof: Json = proofFor(`control_plane_approve:${requestId}`),
) {
  return g.post<Json & { status: string; approvalCount: number; code?: string }>(
    who,
    `/v1/admin/control-plane/requests/${requestId}/approve`,
    proof,
  );
}

const MINUTE_MS = 60_000;

/**
 * Flags and objections as the health signals count them: `lastHour` of each created ten minutes ago, and
 * `earlier` of each created five hours ago (inside the 24 hours before the last hour).
 */
export async function seedActivity(
  database: TestDatabase,
  counts: { flagsLastHour?: number; flagsEarlier?: number; objectionsLastHour?: number; objectionsEarlier?: number },
) {
  const db = database.database.db;
  const recent = newsroomFactory(db, Date.now() - 10 * MINUTE_MS);
  const earlier = newsroomFactory(db, Date.now() - 300 * MINUTE_MS);
  const story = await recent.story();
  for (let i = 0; i < (counts.flagsLastHour ?? 0); i++) await recent.flag(story.id);
  for (let i = 0; i < (counts.flagsEarlier ?? 0); i++) await earlier.flag(story.id);
  for (let i = 0; i < (counts.objectionsLastHour ?? 0); i++)
    await recent.review(story, { kind: 'OBJECTION', createdAt: new Date(Date.now() - 10 * MINUTE_MS) });
  for (let i = 0; i < (counts.objectionsEarlier ?? 0); i++)
    await earlier.review(story, { kind: 'OBJECTION', createdAt: new Date(Date.now() - 300 * MINUTE_MS) });
}
