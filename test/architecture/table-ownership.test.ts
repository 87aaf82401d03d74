import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { DELIVERY_TABLES, type DeliveryTables } from '../../src/delivery/tables.js';
import { enqueueWebhook } from '../../src/delivery/webhooks/outbox.js';
import { GOVERNANCE_TABLES, type GovernanceTables } from '../../src/governance/tables.js';
import { spendProof } from '../../src/identity/humans/proof-body.js';
import type { HumanProof } from '../../src/identity/humans/proof-verifier.js';
import { consumeHumanAction } from '../../src/identity/humans/human-actions.js';
import { IDENTITY_TABLES, type IdentityTables } from '../../src/identity/tables.js';
import { NEWSROOM_TABLES, type NewsroomTables } from '../../src/newsroom/tables.js';
import { appendAudit, type AuditEntry } from '../../src/platform/audit/audit-log.js';
import type { Db, Queryable, Tx } from '../../src/platform/db/database.js';
import type { DB } from '../../src/tables.js';
import { PLATFORM_TABLES, type PlatformTables } from '../../src/platform/tables.js';
import { READERS_TABLES, type ReadersTables } from '../../src/readers/tables.js';
import { passControlPlaneGate, type GateInput } from '../../src/governance/control-plane/gate.js';
import { latestAnalysisCartelHolds } from '../../src/rewards/settlements/cartel-hook.js';
import { REWARDS_TABLES, type RewardsTables } from '../../src/rewards/tables.js';
import { withTestDatabase } from '../helpers/app.js';

/**
 * A context's handle knows its own tables only. The queries below are type-checked by `npm run typecheck`: each
 * `@ts-expect-error` fails the check the day the query compiles, that is the day identity's handle reaches
 * another context's table again.
 */
export function identityReachesOnlyItsTables(db: Db<IdentityTables>, q: Queryable<IdentityTables>, tx: Tx<IdentityTables>) {
  return [
    db.selectFrom('bots').select('bot_id'),
    q.selectFrom('human_identities').select('linked_human_id'),
    // @ts-expect-error stories belong to the newsroom: identity asks through the ActionStories port
    db.selectFrom('stories').select('id'),
    // @ts-expect-error story_versions belong to the newsroom
    q.selectFrom('story_versions').selectAll(),
    // @ts-expect-error governance's proposals are no table of identity's
    tx.updateTable('governance_proposals').set({ status: 'ACTIVE' }),
    // @ts-expect-error nor are the rewards' payouts
    tx.insertInto('payouts').values({}),
  ];
}

const EVENT = {
  type: 'story.correction',
  data: { storyId: 'st_1', ledgerEventId: 'le_1', title: 't', reason: 'r' },
  endpoints: [],
  at: new Date(),
} as const;

/** Delivery's handle knows the outbox's tables; a newsroom transaction that records an event hands on its own. */
export function deliveryReachesOnlyItsTables(db: Db<DeliveryTables>, newsroomTx: Tx<DB>, identityOnly: Tx<IdentityTables>) {
  return [
    db.selectFrom('webhook_deliveries').select('id'),
    // @ts-expect-error the stories an event is about belong to the newsroom: the event carries what a receiver needs
    db.selectFrom('stories').select('id'),
    enqueueWebhook(newsroomTx, EVENT),
    // @ts-expect-error a handle without the outbox cannot record an event in it
    enqueueWebhook(identityOnly, EVENT),
  ];
}

/**
 * Governance's handle holds its own tables and platform's (its audit entries go in its transaction); a person's
 * proof is identity's record, spent through the ProofSpender port, not by handing governance's transaction over.
 */
export function governanceReachesOnlyItsTables(tx: Tx<GovernanceTables>, proof: HumanProof, entry: AuditEntry) {
  return [
    tx.selectFrom('control_plane_requests').select('id'),
    appendAudit(tx, entry),
    // @ts-expect-error the flags counted by the health signals are the newsroom's: they come through HealthCounts
    tx.selectFrom('flags').select('id'),
    // @ts-expect-error the verified human actions are identity's
    tx.updateTable('verified_human_actions').set({ consumed_by: 'x' }),
    // @ts-expect-error and so is spending a proof in them
    spendProof(tx, proof, 'h_1', 'proposal:p_1', new Date()),
  ];
}

/**
 * The newsroom's handle holds its own tables, platform's and delivery's outbox (a correction's audit entry and webhook
 * event go in its transaction). The bots, a reader's topics and history, the verified human actions and the
 * integrity analysis are other contexts' rows: the newsroom reaches them through ports (BotNames, ReaderInterests,
 * HumanActions) or the owner's SQL (`clusterMatesInLatestAnalysis`).
 */
export function newsroomReachesOnlyItsTables(db: Db<NewsroomTables>, tx: Tx<NewsroomTables>, entry: AuditEntry) {
  return [
    db.selectFrom('stories').innerJoin('agent_reviews', 'agent_reviews.story_id', 'stories.id').select('stories.id'),
    tx.insertInto('ledger_events').values({} as never),
    appendAudit(tx, entry),
    enqueueWebhook(tx, EVENT),
    // @ts-expect-error the bots are identity's: the rankings name them through BotNames
    db.selectFrom('bots').select('name'),
    // @ts-expect-error a reader's followed topics are readers': the feed embeds them through ReaderInterests
    db.selectFrom('user_topics').select('topic'),
    // @ts-expect-error and so is what a reader read
    db.selectFrom('reading_history').select('story_id'),
    // @ts-expect-error the verified human actions are identity's: consensus, flags and reward votes spend them through HumanActions
    tx.updateTable('verified_human_actions').set({ consumed_by: 'x' }),
    // @ts-expect-error not even through identity's own function, without the composition root's port
    consumeHumanAction(tx, 'graduate:st_1', 'story:st_1', new Date()),
    // @ts-expect-error the cartel analysis is governance's
    db.selectFrom('integrity_flagged_members').select('member_id'),
    // @ts-expect-error and so are the parameters
    db.selectFrom('governance_parameters').selectAll(),
    // @ts-expect-error a reward vote's paid action is the rewards' row: spent through PaidActions
    tx.insertInto('paid_action_usage').values({} as never),
  ];
}

/**
 * Platform's audit takes a transaction typed to platform's tables; a context's transaction that holds them too
 * (or the whole database's) is accepted without a cast, one that lacks them is not.
 */
export function platformAuditTakesAnyTransactionHoldingItsTables(
  own: Tx<PlatformTables>,
  context: Tx<IdentityTables & PlatformTables>,
  full: Tx<DB>,
  identityOnly: Tx<IdentityTables>,
  entry: AuditEntry,
) {
  return [
    appendAudit(own, entry),
    appendAudit(context, entry),
    appendAudit(full, entry),
    // @ts-expect-error a handle without the audit table cannot append to it
    appendAudit(identityOnly, entry),
    // @ts-expect-error platform's handle knows platform's tables only
    own.selectFrom('bots').select('bot_id'),
  ];
}

/**
 * Readers' handle knows a reader's own rows only: the stories they saved come through BookmarkStories, what the
 * other contexts hold about them (for the export) through ExportSources.
 */
export function readersReachOnlyTheirTables(db: Db<ReadersTables>, q: Queryable<ReadersTables>, tx: Tx<ReadersTables>) {
  return [
    db.selectFrom('user_bookmarks').select('story_id'),
    tx.insertInto('reading_history').values({ actor_id: 'a', story_id: 's', first_read_at: new Date(), last_read_at: new Date() }),
    // @ts-expect-error stories belong to the newsroom: a bookmark's card comes through BookmarkStories
    db.selectFrom('user_bookmarks as b').innerJoin('stories', 'stories.id', 'b.story_id').select('b.story_id'),
    // @ts-expect-error corrections are the newsroom's too
    q.selectFrom('story_corrections').select('created_at'),
    // @ts-expect-error the identity records the export shows are identity's, read through ExportSources
    q.selectFrom('actor_bindings').select('linked_human_id'),
    // @ts-expect-error and a reader's comments are the newsroom's
    q.selectFrom('comments').select('id'),
    // @ts-expect-error and their payout recipient is the rewards'
    tx.selectFrom('reward_recipients').select('id'),
  ];
}

/**
 * The rewards' handle holds their own tables and platform's: a settlement's stories and work come through
 * SettlementContributions, a bot's records through BotRecords, the control plane's gate through MoneyGate and the
 * cartel analysis through CartelHolds, each on the rewards' transaction retyped at the composition root.
 */
export function rewardsReachOnlyTheirTables(db: Db<RewardsTables>, tx: Tx<RewardsTables>, gate: GateInput, entry: AuditEntry) {
  return [
    db.selectFrom('payouts').select('seq'),
    tx.selectFrom('bot_payout_owners').select('linked_human_id'),
    appendAudit(tx, entry),
    // @ts-expect-error the stories a settlement divides belong to the newsroom
    db.selectFrom('stories').select('id'),
    // @ts-expect-error and so do the reward votes that weigh them
    db.selectFrom('reward_votes').select('weight'),
    // @ts-expect-error a bot is identity's record: the owners lock it through BotRecords
    tx.selectFrom('bots').select('bot_id').forUpdate(),
    // @ts-expect-error the control plane's requests are governance's: a second approval passes MoneyGate
    passControlPlaneGate(tx, gate),
    // @ts-expect-error and the cartel analysis is governance's too
    latestAnalysisCartelHolds(tx),
  ];
}

describe('table ownership', () => {
  test('every table of the migrated database has exactly one owner, and a handle typed to its tables still queries the whole database at run time', () =>
    withTestDatabase(async ({ database: { db } }) => {
      const { rows } = await sql<{ table_name: string }>`
        select table_name from information_schema.tables where table_schema = current_schema()`.execute(db);
      const present = new Set(rows.map((r) => r.table_name));
      const owned: string[] = [
        ...PLATFORM_TABLES,
        ...IDENTITY_TABLES,
        ...GOVERNANCE_TABLES,
        ...DELIVERY_TABLES,
        ...READERS_TABLES,
        ...REWARDS_TABLES,
        ...NEWSROOM_TABLES,
      ];
      assert.deepEqual(
        owned.filter((table) => !present.has(table)),
        [],
        'a listed table the database does not have',
      );
      assert.deepEqual(
        [...present].filter((table) => !owned.includes(table)),
        [],
        'a table no owner lists',
      );
      assert.deepEqual(
        owned.filter((table, i) => owned.indexOf(table) !== i),
        [],
        'a table two owners list',
      );
      // the narrowing is a compile-time border only: the same connection answers (the ports rely on this)
      const identity: Db<IdentityTables> = db;
      const bots = await identity
        .selectFrom('bots')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(typeof bots.n, 'number');
    }));
});
