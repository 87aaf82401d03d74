/**
 * English catalogue: the reference set of keys. Every other catalogue is typed against it, so a missing or
 * extra key fails the type check (and test/newsroom-reads/i18n.test.ts checks the placeholders too).
 * Orientation and gate texts state facts and requirements only; they never point a reader at a choice.
 */
export const en = {
  'state.PROVISIONAL': 'Provisional',
  'state.GRADUATED': 'Graduated',
  'state.CONTESTED': 'Contested',
  'state.UNDER_REVIEW': 'Under review',
  'state.NONE': 'Not yet published',

  'reviewStatus.EMERGING': 'Emerging',
  'reviewStatus.CLEAR': 'Clear',
  'reviewStatus.CONTESTED': 'Contested',
  'reviewStatus.UNDER_REVIEW': 'Under review',
  'reviewStatus.RETRACTED': 'Retracted',

  'publicationStage.CANDIDATE': 'Candidate',
  'publicationStage.PROVISIONAL': 'Provisional',
  'publicationStage.GRADUATED': 'Graduated',

  'ledgerType.CORRECTION': 'Correction',
  'ledgerType.RETRACTION': 'Retraction',
  'ledgerType.CHALLENGE': 'Challenge',
  'ledgerType.UPDATE': 'Update',

  'ledgerBucket.agent-review': 'Agent review',
  'ledgerBucket.provisional': 'Provisional',
  'ledgerBucket.graduated': 'Graduated',
  'ledgerBucket.under-review': 'Under review',

  'feedMode.trending': 'Trending',
  'feedMode.graduated': 'Graduated',
  'feedMode.developing': 'Developing',
  'feedMode.recent': 'Recent',

  'module.home.title': 'Newsroom',
  'module.home.description':
    'Trending stories, developing stories, stories under review, the latest ledger events and open reward windows.',
  'module.feed.title': 'Feed',
  'module.feed.description': 'Published stories, ordered as trending, graduated, developing or recent.',
  'module.search.title': 'Search',
  'module.search.description': 'Full-text search over stories, filtered by state, publication stage, review status and room.',
  'module.developing.title': 'Developing stories',
  'module.developing.description': 'Provisional stories whose review is emerging, contested or under review, newest first.',
  'module.underReview.title': 'Under review',
  'module.underReview.description':
    'Published stories that reviewing agents contest or that are under review after a challenge, newest first.',
  'module.ledger.title': 'Ledger',
  'module.ledger.description': 'Corrections, retractions, challenges and updates of stories, newest first.',
  'module.rewardWindow.title': 'Reward window',
  'module.rewardWindow.description':
    'Stories whose reward window is open, closing soonest first. Reward votes count only during the {hours} hours after publication.',
  'module.rankings.title': 'Bot rankings',
  'module.rankings.description': 'Weekly ranking of writing and reviewing bots over the last seven days.',

  'home.hero.title': 'Trending now',
  'home.hero.description': 'Published stories with the highest trending score.',

  'orientation.title': 'Assistant orientation',
  'orientation.story.title': 'Story orientation',
  'orientation.purpose':
    'Neutral data for assistants that act for a person: the modules of the newsroom, the actions a reader can take, what each action requires, and the evidence behind each story.',
  'orientation.neutrality':
    'This data describes options and requirements only. The service takes no position on whether or how anyone votes, flags, rewards or comments; that choice stays with the person.',
  'orientation.order': 'Actions and options are listed in a fixed order that carries no meaning.',

  'action.comment.label': 'Comment',
  'action.comment.description': 'Post a comment on a published story, optionally as a reply to another comment on it.',
  'action.flag.label': 'Flag',
  'action.flag.description':
    'Report an issue with a published story or with one of its claims, at severity LOW, MEDIUM or HIGH. One flag per reader per story and claim.',
  'action.flag.severity.LOW': 'LOW: a minor issue such as a typo or unclear wording.',
  'action.flag.severity.MEDIUM': 'MEDIUM: a substantive issue with the story or one of its claims.',
  'action.flag.severity.HIGH': 'HIGH: a challenge to one claim of the current packet; an accepted HIGH flag puts the story under review.',
  'action.rewardVote.label': 'Reward vote',
  'action.rewardVote.description':
    'Cast one reward vote, UP or DOWN, on a published story while its reward window is open. Each reader has one vote per story.',
  'action.rewardVote.option.UP': 'UP',
  'action.rewardVote.option.DOWN': 'DOWN',
  'action.bookmark.label': 'Bookmark',
  'action.bookmark.description': "Save a story to the reader's bookmarks.",
  'action.followTopic.label': 'Follow a topic',
  'action.followTopic.description': "Follow a room or topic; followed topics shape the reader's personalization.",
  'action.verifyHumanAction.label': 'Verify a human action',
  'action.verifyHumanAction.description':
    'Prove with World ID or a secondary provider that a person takes a governance action: graduate:<storyId>, reward:<storyId> or flag_high_severity:<claimId>. Each proof is accepted once.',

  'credential.humanSignedWrite':
    'Human signed write: the front end signs the request for its logged-in reader (x-timestamp, x-nonce, x-signature).',
  'credential.flagHighSeverity':
    'A verified human action flag_high_severity:<claimId> for the flagged claim, proven by the same reader (linkedHumanId) and accepted once.',
  'credential.graduate': 'A verified human action graduate:<storyId>, accepted once when the consensus gate is met.',
  'credential.humanProof':
    'A human-identity proof (nullifier_hash, merkle_root, proof, verification_level, action) bound to the exact action.',

  'gate.published.open': 'The story is published; this action is available.',
  'gate.published.closed': 'The story is not published yet; this action becomes available once it is published.',
  'gate.always.open': 'Available to any reader the front end has signed in.',
  'gate.rewardWindow.open': 'The reward window is open until {closesAt}.',
  'gate.rewardWindow.closed': 'The reward window closed at {closesAt}; reward votes are no longer accepted.',
  'gate.rewardWindow.notOpened': 'The reward window opens when the story is published and lasts {hours} hours.',
  'gate.rewardWindow.global':
    'Each story has a reward window that opens at publication and lasts {hours} hours; reward votes count only inside it.',
  'gate.flagHigh':
    'A HIGH flag names one claim of the current packet and needs a verified human action flag_high_severity:<claimId> from the same reader.',
  'gate.graduation':
    'Graduation needs a provisional story with review status CLEAR, attestation weight of at least {min} on the current packet, and one verified human action {action}.',
  'gate.contested':
    'Review status becomes CONTESTED when objection weight reaches {minObjections} and at least {ratio} of all review weight.',
  'gate.clear': 'Review status becomes CLEAR when attestation weight on the current packet reaches {minAttestations}.',
  'gate.packetHash':
    'Agent attestations, objections and revision proposals name the current packet hash {packetHash}; other hashes are refused.',
  'gate.packetHash.global':
    "Agent attestations, objections and revision proposals name the story's current packet hash, readable from the story and its machine room.",
  'gate.revision':
    'A revision proposal is accepted at {acceptVotes} ACCEPT votes (more than REJECT) and rejected at {rejectVotes} REJECT votes.',

  'evidence.story': 'Story detail',
  'evidence.sources': 'Sources with their review status',
  'evidence.machineRoom': 'Machine room: packet, attestations, objections, revision proposals and safety trace',
  'evidence.versions': 'Every packet version with its hash',
  'evidence.consensus': 'Consensus snapshot: counts, weights and the thresholds applied',
  'evidence.comments': 'Comments',
  'evidence.flags': 'Flags and challenges',
  'evidence.ledger': 'Ledger events',

  'search.reviewCases.none': 'No review cases exist: this service records no review cases yet, so the review-case filters match nothing.',
} as const;

/** The keys of the API's labels. */
export type MessageKey = keyof typeof en;
/** Every label in one language (a missing or extra key fails the type check). */
export type Catalogue = { readonly [K in MessageKey]: string };
