import type { OwnFlag } from '../../newsroom/flags/service.js';
import type { OwnRewardVote } from '../../newsroom/reward-votes/service.js';
import type { ServiceCalls } from './calls.js';
import { actorOf } from './form-replies.js';
import type { ReaderServices } from './reader-routes.js';
import type { SiteReader } from './session.js';

/** What the logged-in reader already did on a story: the story page shows it instead of the plain buttons and forms. */
export interface StoryReaderState {
  bookmarked: boolean;
  followsRoom: boolean;
  vote: OwnRewardVote | null;
  flags: OwnFlag[];
}

/**
 * The reader's own traces on a story, read in process as them (the bookmark, the room they follow, their vote,
 * their flags), with this read recorded in their history when they keep one. Null when a read is refused (a login the service no longer honours): the page then shows the
 * plain forms, and the form the reader sends says why.
 */
export async function storyReaderState(
  calls: ServiceCalls,
  services: Pick<ReaderServices, 'bookmarks' | 'topics' | 'rewardVotes' | 'flags' | 'history'>,
  reader: SiteReader,
  story: { id: string; room: string },
): Promise<StoryReaderState | null> {
  const result = await calls.read(actorOf(reader), async (actor) => {
    const [, bookmarked, followsRoom, vote, flags] = await Promise.all([
      // the read itself is a trace too, as the API's story read by a signed reader records it (only while their
      // preferences keep a history): My newsroom then puts the stories they have not read first
      services.history.recordRead(actor, story.id).then(() => null),
      services.bookmarks.has(actor, story.id),
      services.topics.follows(actor, story.room),
      services.rewardVotes.mine(actor, story.id),
      services.flags.mine(actor, story.id),
    ]);
    return { bookmarked, followsRoom, vote, flags };
  });
  return result.ok ? result.body : null;
}
