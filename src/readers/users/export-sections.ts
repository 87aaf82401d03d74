import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { Queryable } from '../../platform/db/database.js';
import type {
  ActorBindingsTable,
  BotsTable,
  HumanIdentitiesTable,
  LoginChallengesTable,
  VerifiedHumanActionsTable,
} from '../../identity/rows.js';
import type { CommentsTable, FlagsTable, RewardVotesTable } from '../../newsroom/rows.js';
import type { PaidActionUsageTable, RewardRecipientsTable, RewardWalletChallengesTable } from '../../rewards/rows.js';
import type { ReadersTables } from '../tables.js';
import { DateTime } from '../../platform/schemas.js';
import { allBookmarks } from './bookmarks-repository.js';
import { preferencesOf } from './export-repository.js';
import { budgetSubject } from '../../rewards/recipients/budget.js';
import { allHistory } from './history-repository.js';
import { historyAllowed } from './history-service.js';
import { Preferences } from './schemas.js';
import { Topic } from './topic-schemas.js';
import { presentTopic } from './topics-service.js';
import { allTopics } from './topics-repository.js';

/**
 * The sections of the data export (GET /v1/users/me/export), in the order they appear. Each section names
 * itself, describes itself, declares its schema
 * and collects its data for one reader inside the export's snapshot transaction.
 *
 * To add a section: write a collector over its repository, add one entry below, document its fields in docs/reader-accounts.md. Adding a section or a field
 * keeps EXPORT_SCHEMA_VERSION; renaming or removing one bumps it.
 */
export interface ExportSubject {
  actorId: string;
  /** The linked human the identity records bind to the actor (never the one a client sends), or null. */
  linkedHumanId: string | null;
  /** What the other contexts hold about the reader, read in the export's snapshot (wired at the composition root). */
  sources: ExportSources;
}

/** A read of another context's rows about one reader, in the export's own read-only transaction. */
type SnapshotRead<K, R> = (db: Queryable<ReadersTables>, key: K) => Promise<R>;
type Row<T, C extends keyof Selectable<T>> = Pick<Selectable<T>, C>;

/** identity, newsroom and rewards → readers' export: what each holds about a reader, the SQL in the owner. */
export interface ExportSources {
  identity: {
    binding: SnapshotRead<string, Row<ActorBindingsTable, 'linked_human_id' | 'bound_at' | 'expires_at'> | undefined>;
    humanIdentity: SnapshotRead<
      string,
      Row<HumanIdentitiesTable, 'linked_human_id' | 'tier' | 'provider' | 'created_at' | 'updated_at'> | undefined
    >;
    loginChallenges: SnapshotRead<string, Row<LoginChallengesTable, 'id' | 'action' | 'created_at' | 'expires_at' | 'used_at'>[]>;
    verifiedActions: SnapshotRead<
      string,
      Row<VerifiedHumanActionsTable, 'id' | 'action' | 'provider' | 'created_at' | 'consumed_at' | 'consumed_by'>[]
    >;
    agents: SnapshotRead<string, Row<BotsTable, 'bot_id' | 'name' | 'trust_tier' | 'wallet_address' | 'wallet_chain_id' | 'created_at'>[]>;
  };
  newsroom: {
    comments: SnapshotRead<
      string,
      Row<
        CommentsTable,
        'id' | 'story_id' | 'parent_id' | 'body' | 'verified' | 'linked_human_id' | 'created_at' | 'edited_at' | 'deleted_at'
      >[]
    >;
    flags: SnapshotRead<
      string,
      Row<FlagsTable, 'id' | 'story_id' | 'severity' | 'claim_id' | 'reason' | 'verified' | 'linked_human_id' | 'created_at'>[]
    >;
    rewardVotes: SnapshotRead<
      string,
      Row<RewardVotesTable, 'id' | 'story_id' | 'vote' | 'weight' | 'verified' | 'linked_human_id' | 'created_at' | 'changed_at'>[]
    >;
  };
  rewards: {
    recipient: SnapshotRead<
      string,
      | Row<
          RewardRecipientsTable,
          | 'id'
          | 'actor_id'
          | 'terms_version'
          | 'terms_accepted_at'
          | 'wallet_address'
          | 'wallet_chain_id'
          | 'wallet_verified_at'
          | 'frozen_at'
          | 'frozen_reason'
          | 'created_at'
          | 'updated_at'
        >
      | undefined
    >;
    walletChallenges: SnapshotRead<
      string,
      Row<RewardWalletChallengesTable, 'id' | 'address' | 'chain_id' | 'created_at' | 'expires_at' | 'used_at'>[]
    >;
    paidActionUsage: SnapshotRead<string[], (Row<PaidActionUsageTable, 'subject' | 'used'> & { day: string })[]>;
    payouts: (db: Queryable<ReadersTables>, actorId: string, linkedHumanId: string | null) => Promise<ReaderPayoutRow[]>;
  };
}

interface ReaderPayoutRow {
  id: string;
  settlement_id: string;
  story_id: string;
  role: string;
  beneficiary_kind: string;
  beneficiary_id: string;
  bot_id: string | null;
  amount_base: string;
  token_decimals: number;
  status: string;
  status_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

interface ExportSection<N extends string, S extends TSchema> {
  name: N;
  schema: S;
  collect(db: Queryable<ReadersTables>, subject: ExportSubject): Promise<Static<S>>;
}

const section = <N extends string, S extends TSchema>(s: ExportSection<N, S>) => s;
const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
const NullableDate = Type.Union([DateTime, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const EXPORT_SCHEMA_VERSION = 1;

const identity = section({
  name: 'identity',
  schema: Type.Object(
    {
      actorId: Type.String(),
      binding: Type.Union([Type.Object({ linkedHumanId: Type.String(), boundAt: DateTime, sessionExpiresAt: NullableDate }), Type.Null()]),
      humanIdentity: Type.Union([
        Type.Object({
          linkedHumanId: Type.String(),
          tier: Type.String(),
          provider: Type.String(),
          createdAt: DateTime,
          updatedAt: DateTime,
        }),
        Type.Null(),
      ]),
      loginChallenges: Type.Array(
        Type.Object({ id: Type.String(), action: Type.String(), createdAt: DateTime, expiresAt: DateTime, usedAt: NullableDate }),
      ),
      verifiedHumanActions: Type.Array(
        Type.Object({
          id: Type.String(),
          action: Type.String(),
          provider: Type.String(),
          createdAt: DateTime,
          consumedAt: NullableDate,
          consumedBy: NullableString,
        }),
      ),
      linkedAgents: Type.Array(
        Type.Object({
          botId: Type.String(),
          name: Type.String(),
          trustTier: Type.String(),
          walletAddress: NullableString,
          walletChainId: NullableString,
          createdAt: DateTime,
        }),
      ),
    },
    { description: 'Who the service knows you as: the World ID binding, its tier, logins, proven actions and the bots verified as yours' },
  ),
  async collect(db, { actorId, linkedHumanId, sources: { identity } }) {
    const binding = await identity.binding(db, actorId);
    const human = linkedHumanId ? await identity.humanIdentity(db, linkedHumanId) : undefined;
    const actions = linkedHumanId ? await identity.verifiedActions(db, linkedHumanId) : [];
    const agents = linkedHumanId ? await identity.agents(db, linkedHumanId) : [];
    const challenges = await identity.loginChallenges(db, actorId);
    return {
      actorId,
      binding: binding
        ? { linkedHumanId: binding.linked_human_id, boundAt: iso(binding.bound_at), sessionExpiresAt: isoOrNull(binding.expires_at) }
        : null,
      humanIdentity: human
        ? {
            linkedHumanId: human.linked_human_id,
            tier: human.tier,
            provider: human.provider,
            createdAt: iso(human.created_at),
            updatedAt: iso(human.updated_at),
          }
        : null,
      loginChallenges: challenges.map((c) => ({
        id: c.id,
        action: c.action,
        createdAt: iso(c.created_at),
        expiresAt: iso(c.expires_at),
        usedAt: isoOrNull(c.used_at),
      })),
      verifiedHumanActions: actions.map((a) => ({
        id: a.id,
        action: a.action,
        provider: a.provider,
        createdAt: iso(a.created_at),
        consumedAt: isoOrNull(a.consumed_at),
        consumedBy: a.consumed_by,
      })),
      linkedAgents: agents.map((b) => ({
        botId: b.bot_id,
        name: b.name,
        trustTier: b.trust_tier,
        walletAddress: b.wallet_address,
        walletChainId: b.wallet_chain_id,
        createdAt: iso(b.created_at),
      })),
    };
  },
});

const preferences = section({
  name: 'preferences',
  schema: Type.Object({ preferences: Preferences, updatedAt: NullableDate }, { description: 'Your stored preferences' }),
  async collect(db, { actorId }) {
    const row = await preferencesOf(db, actorId);
    return { preferences: (row?.preferences ?? {}) as Preferences, updatedAt: row ? iso(row.updated_at) : null };
  },
});

const bookmarks = section({
  name: 'bookmarks',
  schema: Type.Array(Type.Object({ storyId: Type.String(), bookmarkedAt: DateTime }), { description: 'Every bookmark, newest first' }),
  async collect(db, { actorId }) {
    return (await allBookmarks(db, actorId)).map((b) => ({ storyId: b.story_id, bookmarkedAt: iso(b.created_at) }));
  },
});

const topics = section({
  name: 'topics',
  schema: Type.Array(Topic, { description: 'Every followed topic, oldest follow first' }),
  async collect(db, { actorId }) {
    return (await allTopics(db, actorId)).map(presentTopic);
  },
});

const history = section({
  name: 'history',
  schema: Type.Object(
    {
      recording: Type.Boolean({ description: 'Whether reads are recorded now (preferences.personalization is true)' }),
      items: Type.Array(
        Type.Object({ storyId: Type.String(), firstReadAt: DateTime, lastReadAt: DateTime, readCount: Type.Integer({ minimum: 1 }) }),
        { description: 'Every story read while recording was on, most recent read first' },
      ),
    },
    { description: 'The personalization history (POST /v1/users/me/history/clear erases it)' },
  ),
  async collect(db, { actorId }) {
    const prefs = await preferencesOf(db, actorId);
    const rows = await allHistory(db, actorId);
    return {
      recording: historyAllowed(prefs?.preferences),
      items: rows.map((r) => ({
        storyId: r.story_id,
        firstReadAt: iso(r.first_read_at),
        lastReadAt: iso(r.last_read_at),
        readCount: r.read_count,
      })),
    };
  },
});

const authorship = {
  storyId: Type.String(),
  verified: Type.Boolean({ description: 'As signed when written' }),
  linkedHumanId: NullableString,
  createdAt: DateTime,
};

const comments = section({
  name: 'comments',
  schema: Type.Array(
    Type.Object({
      id: Type.String(),
      parentId: NullableString,
      body: Type.String(),
      ...authorship,
      editedAt: NullableDate,
      deletedAt: NullableDate,
    }),
    { description: 'Every comment you wrote, oldest first (a deleted one with its text gone)' },
  ),
  async collect(db, { actorId, sources }) {
    return (await sources.newsroom.comments(db, actorId)).map((c) => ({
      id: c.id,
      storyId: c.story_id,
      parentId: c.parent_id,
      body: c.body,
      verified: c.verified,
      linkedHumanId: c.linked_human_id,
      createdAt: iso(c.created_at),
      editedAt: c.edited_at ? iso(c.edited_at) : null,
      deletedAt: c.deleted_at ? iso(c.deleted_at) : null,
    }));
  },
});

const flags = section({
  name: 'flags',
  schema: Type.Array(
    Type.Object({ id: Type.String(), severity: Type.String(), claimId: NullableString, reason: Type.String(), ...authorship }),
    { description: 'Every flag you raised, oldest first' },
  ),
  async collect(db, { actorId, sources }) {
    return (await sources.newsroom.flags(db, actorId)).map((f) => ({
      id: f.id,
      storyId: f.story_id,
      severity: f.severity,
      claimId: f.claim_id,
      reason: f.reason,
      verified: f.verified,
      linkedHumanId: f.linked_human_id,
      createdAt: iso(f.created_at),
    }));
  },
});

const rewardVotes = section({
  name: 'rewardVotes',
  schema: Type.Array(
    Type.Object({ id: Type.String(), vote: Type.String(), weight: Type.Integer(), ...authorship, changedAt: NullableDate }),
    { description: 'Every reward vote you cast, oldest first' },
  ),
  async collect(db, { actorId, sources }) {
    return (await sources.newsroom.rewardVotes(db, actorId)).map((v) => ({
      id: v.id,
      storyId: v.story_id,
      vote: v.vote,
      weight: v.weight,
      verified: v.verified,
      linkedHumanId: v.linked_human_id,
      createdAt: iso(v.created_at),
      changedAt: v.changed_at ? iso(v.changed_at) : null,
    }));
  },
});

const rewardRecipient = section({
  name: 'rewardRecipient',
  schema: Type.Union(
    [
      Type.Object({
        id: Type.String(),
        actorId: Type.String(),
        termsVersion: Type.String(),
        termsAcceptedAt: DateTime,
        state: Type.Union([Type.Literal('TERMS_ACCEPTED'), Type.Literal('WALLET_VERIFIED'), Type.Literal('FROZEN')]),
        frozenAt: NullableDate,
        frozenReason: NullableString,
        createdAt: DateTime,
        updatedAt: DateTime,
      }),
      Type.Null(),
    ],
    { description: 'Your payout recipient record (accepted terms, state, freeze); null when you never accepted the payout terms' },
  ),
  async collect(db, { linkedHumanId, sources }) {
    const r = linkedHumanId ? await sources.rewards.recipient(db, linkedHumanId) : undefined;
    if (!r) return null;
    return {
      id: r.id,
      actorId: r.actor_id,
      termsVersion: r.terms_version,
      termsAcceptedAt: iso(r.terms_accepted_at),
      state: r.frozen_at ? ('FROZEN' as const) : r.wallet_verified_at ? ('WALLET_VERIFIED' as const) : ('TERMS_ACCEPTED' as const),
      frozenAt: isoOrNull(r.frozen_at),
      frozenReason: r.frozen_reason,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
    };
  },
});

const walletBindings = section({
  name: 'walletBindings',
  schema: Type.Array(Type.Object({ address: Type.String(), chainId: Type.Integer(), boundAt: DateTime }), {
    description: 'The payout wallet bound to your recipient record (at most one today; never a signature)',
  }),
  async collect(db, { linkedHumanId, sources }) {
    const r = linkedHumanId ? await sources.rewards.recipient(db, linkedHumanId) : undefined;
    if (!r?.wallet_address || r.wallet_chain_id === null || !r.wallet_verified_at) return [];
    return [{ address: r.wallet_address, chainId: r.wallet_chain_id, boundAt: iso(r.wallet_verified_at) }];
  },
});

const walletChallenges = section({
  name: 'walletChallenges',
  schema: Type.Array(
    Type.Object({
      id: Type.String(),
      address: Type.String(),
      chainId: Type.Integer(),
      createdAt: DateTime,
      expiresAt: DateTime,
      usedAt: NullableDate,
    }),
    { description: 'Every wallet challenge your recipient record asked for, oldest first (without the one-time message)' },
  ),
  async collect(db, { linkedHumanId, sources }) {
    const r = linkedHumanId ? await sources.rewards.recipient(db, linkedHumanId) : undefined;
    if (!r) return [];
    return (await sources.rewards.walletChallenges(db, r.id)).map((c) => ({
      id: c.id,
      address: c.address,
      chainId: c.chain_id,
      createdAt: iso(c.created_at),
      expiresAt: iso(c.expires_at),
      usedAt: isoOrNull(c.used_at),
    }));
  },
});

const payouts = section({
  name: 'payouts',
  schema: Type.Array(
    Type.Object({
      id: Type.String(),
      settlementId: Type.String(),
      storyId: Type.String(),
      role: Type.String(),
      beneficiaryKind: Type.String(),
      beneficiaryId: Type.String(),
      botId: NullableString,
      amountBase: Type.String({ description: 'integer base units of the reward token' }),
      tokenDecimals: Type.Integer(),
      status: Type.String(),
      statusReason: NullableString,
      createdAt: DateTime,
      updatedAt: DateTime,
    }),
    { description: "Every payout that is yours (your flags' and your bots'), oldest first" },
  ),
  async collect(db, { actorId, linkedHumanId, sources }) {
    return (await sources.rewards.payouts(db, actorId, linkedHumanId)).map((p) => ({
      id: p.id,
      settlementId: p.settlement_id,
      storyId: p.story_id,
      role: p.role,
      beneficiaryKind: p.beneficiary_kind,
      beneficiaryId: p.beneficiary_id,
      botId: p.bot_id,
      amountBase: String(p.amount_base),
      tokenDecimals: p.token_decimals,
      status: p.status,
      statusReason: p.status_reason,
      createdAt: iso(p.created_at),
      updatedAt: iso(p.updated_at),
    }));
  },
});

const paidActionUsage = section({
  name: 'paidActionUsage',
  schema: Type.Array(
    Type.Object({
      day: Type.String({ description: 'UTC day, YYYY-MM-DD' }),
      countedAs: Type.Union([Type.Literal('linkedHuman'), Type.Literal('actor')]),
      used: Type.Integer(),
    }),
    { description: 'Paid actions (reward votes) counted against your daily budget, per UTC day, oldest first' },
  ),
  async collect(db, { actorId, linkedHumanId, sources }) {
    const asActor = budgetSubject({ actorId, linkedHumanId: undefined });
    const subjects = [asActor, ...(linkedHumanId ? [budgetSubject({ actorId, linkedHumanId })] : [])];
    return (await sources.rewards.paidActionUsage(db, subjects)).map((u) => ({
      day: u.day,
      countedAs: u.subject === asActor ? ('actor' as const) : ('linkedHuman' as const),
      used: u.used,
    }));
  },
});

/** Every section, in export order. */
export const EXPORT_SECTIONS = [
  identity,
  preferences,
  bookmarks,
  topics,
  history,
  comments,
  flags,
  rewardVotes,
  rewardRecipient,
  walletBindings,
  walletChallenges,
  payouts,
  paidActionUsage,
] as const;

type SectionSchemas = { [S in (typeof EXPORT_SECTIONS)[number] as S['name']]: S['schema'] };

/** The `sections` object of the export: one member per section, each required. */
export const ExportSectionsSchema = Type.Object(Object.fromEntries(EXPORT_SECTIONS.map((s) => [s.name, s.schema])) as SectionSchemas, {
  title: 'ExportSections',
  description:
    "The sections of a reader's data export, in export order: identity, preferences, bookmarks, topics, history, comments, flags, reward votes, payout recipient, wallet bindings and challenges, payouts and paid-action usage.",
  additionalProperties: false,
});
export type ExportSections = Static<typeof ExportSectionsSchema>;

/** Collects every section for `subject` (call inside inSnapshot, so that all of them see one moment). */
export async function collectSections(db: Queryable<ReadersTables>, subject: ExportSubject): Promise<ExportSections> {
  const sections: Record<string, unknown> = {};
  for (const s of EXPORT_SECTIONS) sections[s.name] = await s.collect(db, subject);
  return sections as ExportSections;
}
