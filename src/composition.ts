import { createControlPlaneService, type ProofSpender } from './governance/control-plane/service.js';
import { createIntegrityService, type IntegrityInteractions } from './governance/integrity/service.js';
import { createEmergencyService } from './governance/parameters/emergency-service.js';
import { readParameters } from './governance/parameters/parameters.js';
import { deploymentDefaults } from './governance/parameters/request-parameters.js';
import { controlPlaneTargets, createGovernanceService } from './governance/parameters/service.js';
import { createAgentsService, namesOfBots } from './identity/agents/service.js';
import { createProofVerifier } from './identity/humans/proof-verifier.js';
import { createIdentityService, type ActionStories } from './identity/humans/service.js';
import { createCandidatesService } from './newsroom/candidates/service.js';
import { countFlags } from './newsroom/flags/repository.js';
import { readInteractionWindow } from './newsroom/interactions-repository.js';
import { countObjections } from './newsroom/reviews/repository.js';
import { createCommentsService } from './newsroom/comments/service.js';
import { recomputeConsensus, type HumanActions } from './newsroom/consensus/service.js';
import { createCorrectionsService } from './newsroom/corrections/service.js';
import { createFeedService } from './newsroom/feed/service.js';
import { createFlagsService } from './newsroom/flags/service.js';
import { createHomeService } from './newsroom/home/service.js';
import { createLedgerService } from './newsroom/ledger/service.js';
import { createLegalHoldService } from './newsroom/moderation/legal-hold-service.js';
import { createQuarantineService } from './newsroom/moderation/quarantine-service.js';
import { createSourceStatusService } from './newsroom/moderation/source-status-service.js';
import { createOrientationService } from './newsroom/orientation/service.js';
import { publishStory } from './newsroom/publish/publish-story.js';
import { createPublishService } from './newsroom/publish/service.js';
import { createRankingsService } from './newsroom/rankings/service.js';
import { createReviewsService } from './newsroom/reviews/service.js';
import { createRewardVotesService, type PaidActions } from './newsroom/reward-votes/service.js';
import { createSearchService } from './newsroom/search/service.js';
import { canReadStory } from './newsroom/stories/policy.js';
import { createStoriesService } from './newsroom/stories/service.js';
import { findStoriesOfCurrentClaim, findStoryForAction } from './newsroom/stories/repository.js';
import { lockVisibleStory } from './newsroom/stories/story-lock.js';
import { tablesOf, type Queryable } from './platform/db/database.js';
import type { IdentityTables } from './identity/tables.js';
import type { GovernanceTables } from './governance/tables.js';
import { spendProof } from './identity/humans/proof-body.js';
import { consumeHumanAction, hasOpenHumanAction } from './identity/humans/human-actions.js';
import type { NewsroomTables } from './newsroom/tables.js';
import { spendPaidAction, type PaidActionLimits } from './rewards/recipients/budget.js';
import type { AppContext } from './platform/context.js';
import { onEachDatabase } from './platform/read-routing.js';
import { createBookmarksService } from './readers/users/bookmarks-service.js';
import type { ExportSources } from './readers/users/export-sections.js';
import type { ReadersTables } from './readers/tables.js';
import {
  exportAgents,
  exportBinding,
  exportHumanIdentity,
  exportLoginChallenges,
  exportVerifiedActions,
} from './identity/reader-export-repository.js';
import { exportComments, exportFlags, exportRewardVotes } from './newsroom/reader-export-repository.js';
import { visibleStoryCards } from './newsroom/story-cards-repository.js';
import { exportPaidActionUsage, exportRecipient, exportWalletChallenges } from './rewards/reader-export-repository.js';
import { readerPayoutRows } from './rewards/payout-scope-repository.js';
import { createNotificationsService } from './newsroom/notifications/service.js';
import { createReaderNotificationsService } from './readers/notifications/service.js';
import { createSiteNotifications } from './web/site/notifications.js';
import { createExportService } from './readers/users/export-service.js';
import { createHistoryService } from './readers/users/history-service.js';
import { feedInterests } from './readers/users/feed-interests-repository.js';
import { createUsersService } from './readers/users/service.js';
import { createTopicsService } from './readers/users/topics-service.js';
import { createSiteService } from './web/site/service.js';
import { createAccountsService } from './readers/accounts/service.js';
import { createNamesService } from './readers/names/service.js';
import { createSessionStore } from './readers/accounts/session-store.js';
import { createAgentBook } from './platform/auth/agentbook.js';
import { createBotOwnersService } from './rewards/bot-owners/service.js';
import { createBatchFreezeService } from './rewards/claims/batch-freeze.js';
import { createClaimChain } from './rewards/claims/chain.js';
import { createClaimsService } from './rewards/claims/service.js';
import { createPolicyService } from './rewards/policy/policy-service.js';
import { createRewardsReadsService } from './rewards/recipients/reads-service.js';
import { createRecipientsService } from './rewards/recipients/recipients-service.js';
import { publicReviewCases } from './rewards/review/public-view.js';
import { createRewardReviewService } from './rewards/review/service.js';
import { latestAnalysisCartelHolds, type CartelHolds } from './rewards/settlements/cartel-hook.js';
import type { SettlementContributions } from './rewards/settlements/contributions.js';
import type { MoneyGate } from './rewards/money/second-approval.js';
import type { RewardsTables } from './rewards/tables.js';
import { eligibleStories, streamWorkUnits, workUnits } from './newsroom/settlement-contributions-repository.js';
import { passControlPlaneGate } from './governance/control-plane/gate.js';
import { activeBotKey, findBotRecord, lockBotRecord } from './identity/agents/bot-records-repository.js';
import { findActorBinding } from './identity/humans/repository.js';
import { createSettlementService } from './rewards/settlements/service.js';
import { toBaseUnits, truncateDecimals } from './rewards/money/money.js';
import { createAuditService } from './platform/audit/service.js';
import { failingDeliveries, readDeliveryLog, type DeliveryLogQuery } from './delivery/webhooks/delivery-log.js';
import type { WaitingSources } from './web/console/waiting.js';
import { webhookRetention } from './delivery/webhooks/retention.js';
import { expiredLoginChallenges } from './identity/humans/retention.js';
import type { Config } from './config.js';
import { expiredIdempotencyRecords } from './platform/idempotency-repository.js';
import type { RetentionStep } from './platform/db/retention.js';
import { endedSessions } from './readers/accounts/retention.js';
import type { DB } from './tables.js';

/**
 * rewards/settlements → newsroom: what the stories hold for a settlement to divide, on the settlement's own handle
 * (its transaction for a run). Exported for the tests and benchmarks that build a settlement service of their own.
 */
export const settlementContributions: SettlementContributions = {
  eligibleStories: (q, now) => eligibleStories(tablesOf<NewsroomTables, RewardsTables>(q), now),
  workUnits: (q, now, inParts) => workUnits(tablesOf<NewsroomTables, RewardsTables>(q), now, inParts),
  streamWorkUnits: (tx, now, owners, visit) => streamWorkUnits(tablesOf<NewsroomTables, RewardsTables>(tx), now, owners, visit),
};

/** rewards/money → governance/control-plane: a second approval checked and consumed in the payout's transaction. */
export const moneyGate: MoneyGate = (tx, input) => passControlPlaneGate(tablesOf<GovernanceTables, RewardsTables>(tx), input);

/** rewards/settlements → governance/integrity: the latest analysis's holds, read in the settlement's transaction. */
const cartelHolds: CartelHolds = (q) => latestAnalysisCartelHolds(tablesOf<GovernanceTables, RewardsTables>(q));

/**
 * The composition root: every service of the app, built once when the app starts, with the ports through
 * which a lower context reaches a higher one wired here and nowhere else (each module declares what it needs,
 * an interface or a function type next to its service, and this file hands it the providing module's
 * implementation). The plugins get the services they serve; the reader site renders from the same instances
 * as the JSON routes. See docs/architecture.md.
 */
/** How long a visitor's session without a login lasts (the login form's CSRF secret). */
const ANONYMOUS_SESSION_TTL_MS = 2 * 60 * 60 * 1000;

/** newsroom → identity: a verified human action consumed (or looked for) in the newsroom's transaction. */
export const humanActions: HumanActions = {
  consume: (tx, action, consumedBy, at, linkedHumanId) =>
    consumeHumanAction(tablesOf<IdentityTables, NewsroomTables>(tx), action, consumedBy, at, linkedHumanId),
  isOpen: (tx, action) => hasOpenHumanAction(tablesOf<IdentityTables, NewsroomTables>(tx), action),
};

/** governance/integrity → newsroom: the interactions of an analysis window, in the analysis's own transaction. */
export const integrityInteractions: IntegrityInteractions = {
  readWindow: (tx, from, reader) => readInteractionWindow(tablesOf<NewsroomTables, GovernanceTables>(tx), from, reader),
};

/** newsroom/reward-votes → rewards: a vote spends one of the voter's daily paid actions (`limits`), in the vote's transaction. */
export function paidActionsWithin(limits: PaidActionLimits): PaidActions {
  return { spend: (tx, actor, at) => spendPaidAction(tablesOf<RewardsTables, NewsroomTables>(tx), actor, limits, at) };
}

export function createServices(ctx: AppContext<DB>) {
  const { config, clock, transactor, cursors, readGeneration } = ctx;
  const db = ctx.database.db;
  const base = { db, transactor, clock };
  const defaults = deploymentDefaults(config);
  // the public reads take the registry's defaults, as they always did
  const parameters = () => readParameters(db);
  // governance and the control plane share one human-proof verifier (HUMAN_PROOF_VERIFIER)
  const verifier = createProofVerifier(config);

  // ports
  /** identity/humans → newsroom: a verified action's story (visibility, and graduate: consensus). */
  const actionStories: ActionStories = {
    find: (storyId) => findStoryForAction(db, storyId),
    ofCurrentClaim: (claimId) => findStoriesOfCurrentClaim(db, claimId),
    canRead: canReadStory,
    async onGraduateAction(identityTx, events, storyId, at, record) {
      // one transaction: identity's records and the story's consensus, each typed to its own tables
      const tx = tablesOf<NewsroomTables, IdentityTables>(identityTx);
      const params = await readParameters(tablesOf<GovernanceTables, NewsroomTables>(tx), defaults);
      // the story first, as every story writer locks it (one lock order, no deadlock)
      const story = await lockVisibleStory(tx, events, storyId);
      const recorded = await record();
      if (story.publication_stage === 'PROVISIONAL') await recomputeConsensus(humanActions, tx, events, story, params, at);
      return recorded;
    },
  };

  // identity
  const agents = createAgentsService({ config, db, transactor, clock });
  const humans = createIdentityService({ ...base, config, verifier: createProofVerifier(config), stories: actionStories });

  // governance
  /** governance → identity: a person's proof spent in governance's transaction, typed to identity's tables. */
  const proofs: ProofSpender = {
    spend: (tx, proof, provedBy, consumedBy, at) =>
      spendProof(tablesOf<IdentityTables, GovernanceTables>(tx), proof, provedBy, consumedBy, at),
  };
  const governance = createGovernanceService({ ...base, config, defaults, verifier, proofs });
  // governance/parameters → newsroom: the health signals' counts of flags and objections
  const emergency = createEmergencyService({
    ...base,
    config,
    defaults,
    counts: { flags: (from, to) => countFlags(db, from, to), objections: (from, to) => countObjections(db, from, to) },
  });
  // governance/control-plane → governance/parameters: whether a request's target proposal exists
  const controlPlane = createControlPlaneService({ ...base, config, cursors, verifier, proofs, targets: controlPlaneTargets(db) });
  const integrity = createIntegrityService({ ...base, interactions: integrityInteractions });
  const audit = createAuditService({ db, cursors, config });

  // rewards
  const decimals = config.rewardTokenDecimals;
  // SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS in base units; finer than the token's decimals rounds down to them
  const secondApproval = {
    decimals,
    aboveBase: toBaseUnits(truncateDecimals(config.rewards.secondApprovalAboveOrbs, decimals), decimals) ?? 0n,
  };
  const chain = config.chainRpcUrl ? createClaimChain(config.chainRpcUrl) : null;
  const rewards = {
    policy: createPolicyService({ ...base, decimals }),
    recipients: createRecipientsService({ ...base, serviceOrigin: config.publicBaseUrl }),
    reads: createRewardsReadsService({ ...base, decimals, limits: config.rewards.dailyPaidActions }),
    settlements: createSettlementService({
      ...base,
      decimals,
      cartelHolds,
      contributions: settlementContributions,
      controlPlane: moneyGate,
      cursors,
      readInParts: ctx.database.connections > 1,
      secondApproval,
    }),
    // rewards/review → newsroom and identity/humans: whether a story a case or a freeze names exists, and the
    // person a reader's actor is bound to
    review: createRewardReviewService({
      ...base,
      decimals,
      reviewDueHours: config.rewards.reviewDueHours,
      stories: { exists: async (storyId) => (await findStoryForAction(db, storyId)) !== null },
      people: { boundTo: async (actorId) => (await findActorBinding(db, actorId))?.linked_human_id ?? null },
    }),
    claims: createClaimsService({
      ...base,
      cursors,
      chain,
      secondApproval,
      controlPlane: moneyGate,
      rail: {
        enabled: config.claimsEnabled,
        distributorAddress: config.claimDistributorAddress,
        minConfirmations: config.claimMinConfirmations,
        decimals,
      },
    }),
    claimFreezes: createBatchFreezeService({ ...base, chain, minConfirmations: config.claimMinConfirmations }),
    botOwners: createBotOwnersService({
      ...base,
      agentBook: createAgentBook(config.agentbook),
      cartelHolds,
      // rewards/bot-owners → identity/agents: a bot's records, locked in the owners' transaction
      bots: {
        find: (botId) => findBotRecord(db, botId),
        lock: (tx, botId) => lockBotRecord(tablesOf<IdentityTables, RewardsTables>(tx), botId),
        activeKey: (botId, version) => activeBotKey(db, botId, version),
      },
      serviceOrigin: config.publicBaseUrl,
      aud: config.agentSignedWriteAud,
    }),
  };

  // newsroom
  // The public reads, built on the primary and, with DATABASE_READ_URL, on the read replica too: their routes
  // pick one per request (src/platform/read-routing.ts); everything else, the site included, uses the primary's.
  const publicReads = onEachDatabase(db, ctx.readReplica, (readDb) => {
    const readParams = () => readParameters(readDb);
    const stories = createStoriesService({ db: readDb, clock, parameters: readParams });
    // newsroom/feed → readers: a signed reader's interests, embedded in the feed's one statement
    const feed = createFeedService({ cursors, db: readDb, interests: feedInterests });
    const ledger = createLedgerService({ db: readDb, clock, cursors });
    return {
      stories,
      feed,
      search: createSearchService({
        db: readDb,
        cursors,
        reviewCases: (filters, limit) => publicReviewCases(readDb, filters, new Date(clock.now()), limit),
      }),
      ledger,
      // newsroom/rankings → identity: the ranked bots' names, on the same database
      rankings: createRankingsService({ db: readDb, clock, botNames: (botIds) => namesOfBots(readDb, botIds) }),
      home: createHomeService({ db: readDb, feed, ledger, clock, parameters: readParams }),
      orientation: createOrientationService({ stories, clock, parameters: readParams }),
    };
  });
  const stories = publicReads.stories.primary;
  // newsroom/comments → readers/names: comments name their authors
  const names = createNamesService({ ...base, readGeneration });
  const moderationDeps = { ...base, cursors };
  const paidActions = paidActionsWithin(config.rewards.dailyPaidActions);
  const newsroom = {
    candidates: createCandidatesService({ db, transactor, clock }),
    publish: createPublishService({ transactor, clock, humanActions }),
    reviews: createReviewsService({ transactor, clock, humanActions }),
    comments: createCommentsService({ ...base, cursors, stories, humanActions, authorNames: names.namesOf }),
    flags: createFlagsService({ ...base, cursors, stories, humanActions }),
    rewardVotes: createRewardVotesService({ ...base, stories, humanActions, paidActions }),
    corrections: createCorrectionsService({ transactor, clock, config, humanActions }),
    moderation: {
      // newsroom/moderation → newsroom/publish: a released candidate is published
      quarantine: createQuarantineService({ ...moderationDeps, publishReleased: (...args) => publishStory(humanActions, ...args) }),
      holds: createLegalHoldService(moderationDeps),
      sources: createSourceStatusService({ ...base, readGeneration }),
    },
    stories,
    feed: publicReads.feed.primary,
    search: publicReads.search.primary,
    ledger: publicReads.ledger.primary,
    rankings: publicReads.rankings.primary,
    home: publicReads.home.primary,
    orientation: publicReads.orientation.primary,
    notifications: createNotificationsService({ db, now: clock.now }),
  };

  // readers
  const history = createHistoryService(base);
  // readers' export → identity, newsroom and rewards: what each holds about a reader, read in the export's
  // snapshot transaction retyped to the owner's tables
  const asIdentity = (tx: Queryable<ReadersTables>) => tablesOf<IdentityTables, ReadersTables>(tx);
  const asNewsroom = (tx: Queryable<ReadersTables>) => tablesOf<NewsroomTables, ReadersTables>(tx);
  const asRewards = (tx: Queryable<ReadersTables>) => tablesOf<RewardsTables, ReadersTables>(tx);
  const exportSources: ExportSources = {
    identity: {
      binding: (tx, actorId) => exportBinding(asIdentity(tx), actorId),
      humanIdentity: (tx, linkedHumanId) => exportHumanIdentity(asIdentity(tx), linkedHumanId),
      loginChallenges: (tx, actorId) => exportLoginChallenges(asIdentity(tx), actorId),
      verifiedActions: (tx, linkedHumanId) => exportVerifiedActions(asIdentity(tx), linkedHumanId),
      agents: (tx, linkedHumanId) => exportAgents(asIdentity(tx), linkedHumanId),
    },
    newsroom: {
      comments: (tx, actorId) => exportComments(asNewsroom(tx), actorId),
      flags: (tx, actorId) => exportFlags(asNewsroom(tx), actorId),
      rewardVotes: (tx, actorId) => exportRewardVotes(asNewsroom(tx), actorId),
    },
    rewards: {
      recipient: (tx, linkedHumanId) => exportRecipient(asRewards(tx), linkedHumanId),
      walletChallenges: (tx, recipientId) => exportWalletChallenges(asRewards(tx), recipientId),
      paidActionUsage: (tx, subjects) => exportPaidActionUsage(asRewards(tx), subjects),
      payouts: (tx, actorId, linkedHumanId) => readerPayoutRows(asRewards(tx), actorId, linkedHumanId),
    },
  };
  const readers = {
    users: createUsersService({ db, clock }),
    // readers' bookmarks → newsroom: whether a story may be saved, and the cards of a page of saved stories
    bookmarks: createBookmarksService({
      ...base,
      cursors,
      stories: { find: (storyId) => findStoryForAction(db, storyId), cards: (storyIds) => visibleStoryCards(db, storyIds) },
    }),
    topics: createTopicsService(base),
    history,
    exporter: createExportService({ ...base, sources: exportSources }),
    names,
    notifications: createReaderNotificationsService({ db, now: clock.now }),
  };
  // readers/accounts → identity/humans: a login handed over to the person's account
  const siteAccounts = createAccountsService({ db, clock, identity: humans });
  const site = createSiteService({ ...newsroom, agents, names, accounts: siteAccounts, parameters, baseUrl: config.publicBaseUrl });
  // web/site → newsroom and readers: a reader's notifications, from what happened around them and their state
  const siteNotifications = createSiteNotifications({
    saved: readers.bookmarks.savedIds,
    around: newsroom.notifications.around,
    countSince: newsroom.notifications.countSince,
    state: readers.notifications,
    names,
    baseUrl: config.publicBaseUrl,
  });
  const siteSessions = createSessionStore({ db, clock, anonymousTtlMs: ANONYMOUS_SESSION_TTL_MS });

  return {
    agents,
    humans,
    governance,
    emergency,
    controlPlane,
    integrity,
    rewards,
    newsroom,
    publicReads,
    readers,
    site,
    siteAccounts,
    siteNotifications,
    siteSessions,
    // what the console reads that has no API route of its own
    audit,
    console: {
      audit,
      healthSignals: emergency.signals,
      deliveryLog: (query: DeliveryLogQuery) => readDeliveryLog(db, query),
      // what waits for an admin: each count from the service that owns it (the console's home, the masthead)
      waiting: {
        quarantine: () => newsroom.moderation.quarantine.waiting(),
        reviewCases: () => rewards.review.openCount(),
        approvals: async (actor) => (await controlPlane.waitingFor(actor, 'governance')).length,
        moneyApprovals: async (actor) => (await controlPlane.waitingFor(actor, 'settlement.run')).length,
        finalizeApprovals: async (actor) => (await controlPlane.waitingFor(actor, 'batch.finalize')).length,
        proposals: () => governance.waiting(),
        findings: () => integrity.waitingFindings(),
        failingDeliveries: () => failingDeliveries(db),
      } satisfies WaitingSources,
    },
    // newsroom/stories → readers/users: a signed reader's read goes into their history
    recordRead: history.recordRead,
  };
}

const DAY_MS = 86_400_000;

/**
 * The steps of the retention command (operations/retention, `npm run retention`), each offered by the module
 * that owns its table, in the order they run: the webhook deliveries before the events they free. What is kept
 * and why: docs/scaling.md, "Tables that grow without end".
 */
export function retentionSteps(now: Date, config: Pick<Config, 'webhooks'>): RetentionStep<DB>[] {
  return [
    expiredIdempotencyRecords(now),
    webhookRetention(new Date(now.getTime() - config.webhooks.retentionDays * DAY_MS)),
    endedSessions(now),
    expiredLoginChallenges(now),
  ];
}
