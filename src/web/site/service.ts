import type { Parameters } from '../../governance/parameters/parameters.js';
import type { createAgentsService } from '../../identity/agents/service.js';
import type { Lang } from '../../platform/i18n/index.js';
import type { createCommentsService } from '../../newsroom/comments/service.js';
import type { FeedService } from '../../newsroom/feed/service.js';
import type { FeedMode } from '../../newsroom/feed/schemas.js';
import type { createFlagsService } from '../../newsroom/flags/service.js';
import type { createHomeService } from '../../newsroom/home/service.js';
import type { LedgerService } from '../../newsroom/ledger/service.js';
import type { createRankingsService } from '../../newsroom/rankings/service.js';
import type { SearchQuery } from '../../newsroom/search/schemas.js';
import type { createSearchService } from '../../newsroom/search/service.js';
import type { StoriesService } from '../../newsroom/stories/service.js';
import { notFound } from '../../platform/errors.js';
import type { createAccountsService } from '../../readers/accounts/service.js';
import type { NamesService } from '../../readers/names/service.js';
import { createSyndicationService } from './syndication.js';

/** Rooms the feed page links to. */
const ROOM_LINKS = 24;
/** Comments and flags shown on a story page (the JSON reads page further). */
const STORY_PAGE_ITEMS = 50;
/** Comments on a person's profile and stories on a bot's, newest first. */
const PROFILE_ITEMS = 50;

/** Display names of bots by id; a bot missing from it is shown by a short form of its id. */
export type BotNames = ReadonlyMap<string, string>;

/**
 * The data of each reader-site page, read through the same services as the JSON routes (no read SQL of its
 * own but the room list), so a page shows exactly what the API answers. The story pages name the bots they
 * mention: their names come from the agents service in one query per page (the JSON reads carry ids only).
 */
export function createSiteService(deps: {
  stories: StoriesService;
  feed: FeedService;
  search: ReturnType<typeof createSearchService>;
  ledger: LedgerService;
  rankings: ReturnType<typeof createRankingsService>;
  home: ReturnType<typeof createHomeService>;
  comments: ReturnType<typeof createCommentsService>;
  flags: ReturnType<typeof createFlagsService>;
  agents: Pick<ReturnType<typeof createAgentsService>, 'names' | 'profile'>;
  names: Pick<NamesService, 'holderOf'>;
  accounts: Pick<ReturnType<typeof createAccountsService>, 'joinedAt'>;
  parameters: () => Promise<Parameters>;
  /** PUBLIC_BASE_URL: the origin of the site's absolute URLs. */
  baseUrl: string;
}) {
  const { stories, feed, search, ledger, rankings, home, comments, flags, parameters } = deps;
  const { agents, names, accounts } = deps;

  return {
    async feedPage(query: { lang: Lang; mode: FeedMode; room?: string; cursor?: string; limit?: number }) {
      const [page, rooms] = await Promise.all([feed.feed(query), feed.listedRooms(ROOM_LINKS)]);
      // the collusion mark on the cards (one query for the page's stories)
      const marked = await stories.collusionMarked(page.items.map((item) => item.id));
      return { page, rooms, marked };
    },

    /**
     * A story with everything its page explains; 404 NOT_FOUND for an unknown or hidden story. The story is read
     * once, by the detail, which is the access check: the consensus, versions, comment and flag reads take its row.
     * The sources are the detail's (the active ones, with their status); the governance parameters are read
     * only for a story whose reward window has not opened (the text names its length).
     */
    async storyPage(id: string, lang: Lang) {
      const { detail: story, row } = await stories.detailWithRow(id, lang);
      const page = { limit: STORY_PAGE_ITEMS };
      const [consensus, versions, commentList, flagList, reviews] = await Promise.all([
        stories.consensusForReadableStory(row),
        stories.versionsForReadableStory(row),
        comments.listForReadableStory(row, page),
        flags.listForReadableStory(row, page),
        stories.reviewsForReadableStory(row),
      ]);
      const [rewardWindowHours, botNames] = await Promise.all([
        story.rewardWindow.closesAt ? null : parameters().then((p) => p.rewardWindowHours),
        agents.names([story.authorBotId, ...versions.versions.map((v) => v.createdBy), ...reviews.objections.map((r) => r.botId)]),
      ]);
      const objections = reviews.objections;
      return { story, consensus, versions, comments: commentList, flags: flagList, objections, rewardWindowHours, botNames };
    },

    async machineRoomPage(id: string, lang: Lang) {
      const [story, room] = await Promise.all([stories.detail(id, lang), stories.machineRoom(id)]);
      const reviewers = [...room.attestations, ...room.objections, ...room.revisionProposals].map((r) => r.botId);
      return { story, room, botNames: await agents.names(reviewers) };
    },

    async versionsPage(id: string, lang: Lang) {
      const [story, versions] = await Promise.all([stories.detail(id, lang), stories.versions(id)]);
      return { story, versions, botNames: await agents.names(versions.versions.map((v) => v.createdBy)) };
    },

    /** A reader's profile by their display name (any case); 404 when nobody holds it. */
    async personPage(name: string) {
      const holder = await names.holderOf(name);
      if (!holder) throw notFound('person');
      const [joinedAt, list] = await Promise.all([accounts.joinedAt(holder.actorId), comments.byAuthor(holder.actorId, PROFILE_ITEMS)]);
      return { name: holder.name, joinedAt: joinedAt ?? holder.since, comments: list };
    },

    /** A bot's profile: who it is, its place in this week's rankings and its newest stories; 404 for an unknown bot. */
    async botPage(botId: string) {
      const bot = await agents.profile(botId);
      if (!bot) throw notFound('bot');
      const [week, stories] = await Promise.all([rankings.weekly(), feed.storiesOfBot(botId, PROFILE_ITEMS)]);
      return { bot, ranking: week.items.find((item) => item.botId === botId) ?? null, stories };
    },

    ledgerPage: (query: { filters?: string; cursor?: string; limit?: number }) => ledger.events(query),
    rankingsPage: () => rankings.weekly(),
    developing: (lang: Lang) => home.developing(lang),
    underReview: (lang: Lang) => home.underReview(lang),
    rewardWindow: (lang: Lang) => home.rewardWindow(lang),
    /** A search and the rooms its room filter offers (those with listed stories). */
    async searchPage(query: SearchQuery) {
      const [result, rooms] = await Promise.all([search.search(query), feed.listedRooms(ROOM_LINKS)]);
      return { result, rooms };
    },
    syndication: createSyndicationService({ feed, baseUrl: deps.baseUrl }),
  };
}
