/**
 * Every error code the service answers, with its status, its short label (`error` in the body) and the
 * default `message` and `nextAction`. Errors are made only from here (errors.ts `appError`), and the OpenAPI
 * document lists this catalogue (platform/openapi.ts), so a client can rely on a code meaning one thing.
 */
export interface CatalogueEntry {
  status: number;
  error: string;
  message: string;
  nextAction?: string;
}

const entry = (status: number, error: string, message: string, nextAction?: string): CatalogueEntry => ({
  status,
  error,
  message,
  ...(nextAction ? { nextAction } : {}),
});

const BAD_REQUEST = 'Bad request';
const FORBIDDEN = 'Forbidden';
const CONFLICT = 'Conflict';

export const ERROR_CATALOGUE = {
  // requests the framework or the HTTP parser refuses
  VALIDATION_FAILED: entry(400, 'Validation failed', 'The request is not valid', 'Fix each field named in details'),
  MALFORMED_JSON: entry(400, BAD_REQUEST, 'The body is not valid JSON'),
  INVALID_BODY: entry(400, BAD_REQUEST, 'The request body does not match its content-length'),
  MALFORMED_URL: entry(400, BAD_REQUEST, 'The URL is not valid (bad percent-encoding)'),
  MALFORMED_REQUEST: entry(
    400,
    BAD_REQUEST,
    'The request is not valid HTTP/1.1 (bytes outside ASCII in the target must be percent-encoded)',
  ),
  MALFORMED_HEADER: entry(
    400,
    BAD_REQUEST,
    'A request header is not valid HTTP/1.1: its name is not a token, or its value holds a control character',
    'Send each header value as visible ASCII (a signature, key or nonce never holds a control character)',
  ),
  INVALID_REQUEST: entry(400, BAD_REQUEST, 'The request is not valid'),
  INVALID_CURSOR: entry(400, BAD_REQUEST, 'The cursor is not one this service issued', 'Request the first page again without a cursor'),
  REQUEST_TIMEOUT: entry(408, 'Request timeout', 'The request was not received in time'),
  PAYLOAD_TOO_LARGE: entry(413, 'Payload too large', 'The request body is too large'),
  URI_TOO_LONG: entry(414, 'URI too long', 'The request target is too long'),
  UNSUPPORTED_MEDIA_TYPE: entry(415, 'Unsupported media type', 'Send the body as application/json; charset=utf-8'),
  HEADERS_TOO_LARGE: entry(431, 'Request header fields too large', 'The request headers exceed the allowed size'),
  NOT_FOUND: entry(404, 'Not found', 'Not found'),
  METHOD_NOT_ALLOWED: entry(405, 'Method not allowed', 'This path does not have this method', 'Use one of the methods in the Allow header'),
  RATE_LIMITED: entry(429, 'Too many requests', 'Rate limit reached', 'Wait retryAfterSeconds before retrying'),
  INTERNAL_ERROR: entry(500, 'Internal error', 'Something went wrong on our side; the request id identifies it'),

  // authentication
  SIGNATURE_INVALID: entry(
    401,
    'Signature invalid',
    'The request signature is missing or does not verify',
    'Sign timestamp.nonce.METHOD.path.canonicalBodyJson with the signing secret',
  ),
  SIGNING_SECRET_UNAVAILABLE: entry(503, 'Service unavailable', 'Human signed requests are unavailable: no signing secret is configured'),
  REPLAY_DETECTED: entry(409, CONFLICT, 'This nonce was already used', 'Sign the request again with a fresh nonce and timestamp'),
  AGENT_SIGNED_HEADERS_INVALID: entry(
    401,
    'Invalid agent signed write headers',
    'One or more x-agent-* headers are missing or malformed',
    'Fix each header named in details and sign again',
  ),
  AGENT_SIGNATURE_INVALID: entry(
    401,
    'Invalid agent signature',
    'The Ed25519 signature does not verify for this request',
    'Sign "svc-agent-v1:{aud}.{timestamp}.{nonce}.{METHOD}.{path}.{canonicalBodyJson}" with the bot key',
  ),
  AGENT_BOT_UNREGISTERED: entry(401, 'Agent bot is not registered', 'This bot has not joined', 'POST /v1/agents/join with this key first'),
  API_KEY_REQUIRED: entry(401, 'Public API key required', 'Send x-api-key: <key> or Authorization: Bearer <key>'),
  API_KEY_INVALID: entry(401, 'Public API key required', 'The API key is not valid'),
  OPERATIONS_ACCESS_REQUIRED: entry(
    401,
    'Operations access required',
    'Send x-operations-token: <API_OPERATIONS_TOKEN> or Authorization: Bearer <token>',
  ),
  AGENT_VERIFIED_REQUIRED: entry(
    403,
    'Verified agents required in production/public deployments',
    'This deployment accepts writes from verified bots only',
    'Verify the bot with POST /v1/agents/verify',
  ),
  AGENTPROOF_VERIFICATION_FAILED: entry(
    403,
    'verification failed',
    'The agentproof does not verify',
    'Build a fresh agentproof for this exact route and nonce',
  ),
  AGENT_PERMISSION_DENIED: entry(403, FORBIDDEN, 'This bot lacks the permission this route needs'),
  LINKED_HUMAN_NOT_BOUND: entry(
    403,
    FORBIDDEN,
    'The linkedHumanId is not bound to this actorId in the identity records',
    'Log the user in with POST /v1/session/worldid/challenge and /verify, then sign with the linkedHumanId it returns',
  ),
  CONTENT_ADMIN_REQUIRED: entry(403, FORBIDDEN, 'This operation needs a content admin (CONTENT_ADMIN_IDS)'),
  REWARDS_ADMIN_REQUIRED: entry(403, FORBIDDEN, 'This operation needs a rewards admin (REWARDS_ADMIN_IDS)'),
  IDEMPOTENCY_KEY_CONFLICT: entry(
    409,
    'Idempotency conflict',
    'This idempotency key was used with a different request',
    'Use a new idempotency-key for a different request',
  ),
  IDEMPOTENCY_KEY_IN_PROGRESS: entry(
    409,
    CONFLICT,
    'The first request with this idempotency key is still being processed',
    'Retry after retryAfterSeconds',
  ),

  // agents
  AGENT_SELF_SERVE_JOIN_DISABLED: entry(
    403,
    FORBIDDEN,
    'Self-serve join is disabled: only registry bots may write (AGENT_SELF_SERVE_JOIN=0)',
  ),
  AGENT_KEY_IN_USE: entry(409, CONFLICT, 'This key belongs to a registry bot'),
  AGENT_JOIN_RACE: entry(409, CONFLICT, 'The bot was removed while joining', 'Retry the join'),

  // newsroom
  CURRENT_PACKET_MISMATCH: entry(
    409,
    'Current packet hash mismatch',
    "The packet hash is not the story's current one",
    'Refetch the current packet hash, rebuild and retry',
  ),
  STORY_NOT_PUBLISHED: entry(
    409,
    CONFLICT,
    'The story is still a candidate: reviews open once it is published',
    'Wait for publication, then retry',
  ),
  STORY_RETRACTED: entry(409, CONFLICT, 'The story was retracted'),
  SELF_ATTESTATION_FORBIDDEN: entry(403, FORBIDDEN, 'A bot cannot attest its own story'),
  REVIEW_ALREADY_RECORDED: entry(409, CONFLICT, 'This bot already attested or objected to this packet'),
  REVISION_RECREATES_VERSION: entry(
    409,
    CONFLICT,
    'These changes recreate an earlier version of the story; a packet can be a version only once',
    'Propose changes that make a packet the story has not had yet',
  ),
  PROPOSAL_STALE: entry(409, CONFLICT, 'The story changed since this proposal was made', 'Propose again against the current packet hash'),
  PROPOSAL_NOT_OPEN: entry(409, CONFLICT, 'The proposal is no longer open'),
  PROPOSER_CANNOT_VOTE: entry(403, FORBIDDEN, 'The proposer cannot vote on its own proposal'),
  VOTE_ALREADY_RECORDED: entry(409, CONFLICT, 'This bot already voted on this proposal'),
  FLAG_ALREADY_RECORDED: entry(409, CONFLICT, 'This reader already flagged this story (or this claim)'),
  HUMAN_VERIFICATION_REQUIRED: entry(
    409,
    CONFLICT,
    'This action needs a verified human action',
    'POST /v1/worldid/verify with the action, then retry with your linkedHumanId',
  ),
  REWARD_VOTE_ALREADY_CAST: entry(409, CONFLICT, 'This reader already cast a reward vote on this story'),
  REWARD_WINDOW_CLOSED: entry(409, CONFLICT, 'The reward window of this story is closed'),
  COMMENT_NOT_YOURS: entry(403, FORBIDDEN, 'Only the author of a comment may edit or delete it'),
  COMMENT_EDIT_WINDOW_CLOSED: entry(
    409,
    CONFLICT,
    'A comment can be edited only in the 15 minutes after it was posted',
    'Delete the comment and post a new one, or reply to it',
  ),
  COMMENT_DELETED: entry(409, CONFLICT, 'The comment was deleted: its text can no longer be edited'),
  NULLIFIER_REUSED: entry(409, CONFLICT, 'This proof was already used for this action'),

  // identity
  HUMAN_PROOF_INVALID: entry(403, FORBIDDEN, 'The human proof does not verify', 'Generate a new proof for this exact action and signal'),
  HUMAN_PROOF_VERIFIER_UNAVAILABLE: entry(503, 'Service unavailable', 'The human proof could not be checked now', 'Retry later'),
  HUMAN_PROOF_ALREADY_VERIFIED: entry(
    409,
    CONFLICT,
    'The provider reports that this person already verified for this action as often as the action allows',
  ),
  HUMAN_ACTION_NOT_ALLOWED: entry(
    400,
    BAD_REQUEST,
    'This route does not accept this action',
    'Use an action format this route lists (docs/identity.md)',
  ),
  HUMAN_LOGIN_REQUIRED: entry(
    403,
    FORBIDDEN,
    'This actor has no linked human yet: World ID proofs are accepted from logged-in actors only',
    'Log the user in with POST /v1/session/worldid/challenge and /verify, then send the proof again',
  ),
  ACTOR_BOUND_TO_OTHER_HUMAN: entry(
    409,
    CONFLICT,
    'This actorId is bound to another World ID human for the current session',
    'Log in with the World ID that owns this actorId, or use another actorId',
  ),
  CHALLENGE_USED: entry(
    409,
    CONFLICT,
    'This login challenge was already used',
    'Ask for a new challenge with POST /v1/session/worldid/challenge',
  ),
  CHALLENGE_EXPIRED: entry(
    410,
    'Gone',
    'This login challenge has expired',
    'Ask for a new challenge with POST /v1/session/worldid/challenge',
  ),

  // governance and control plane
  VERIFIED_ACTOR_REQUIRED: entry(403, FORBIDDEN, 'This operation needs a verified human (verified=true)'),
  GOVERNANCE_TRANSITION_INVALID: entry(409, CONFLICT, 'The proposal cannot make this transition from its current state'),
  GOVERNANCE_CHANGES_INVALID: entry(
    409,
    CONFLICT,
    'The proposal changes are no longer valid under the parameter registry',
    'Propose the changes again',
  ),
  GOVERNANCE_NO_EMERGENCY: entry(409, CONFLICT, 'No emergency is active'),
  GOVERNANCE_EMERGENCY_ACTIVE: entry(
    409,
    CONFLICT,
    'An emergency is already active',
    'Clear it first (POST /v1/admin/governance/emergency/clear)',
  ),
  GOVERNANCE_EMERGENCY_NOT_WARRANTED: entry(409, CONFLICT, 'No health signal trips now: there are no emergency measures to apply'),
  CONTROL_PLANE_EXECUTION_REQUIRED: entry(
    409,
    CONFLICT,
    'This change needs an executed control-plane request (FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED=1)',
    'File POST /v1/admin/control-plane/requests for it, collect the approvals, then send its id as controlPlaneRequestId',
  ),
  CONTROL_PLANE_REQUEST_NOT_FOUND: entry(409, CONFLICT, 'No control-plane request has this id'),
  CONTROL_PLANE_REQUEST_NOT_EXECUTED: entry(
    409,
    CONFLICT,
    'The control-plane request has not been executed (it lacks approvals, or was cancelled)',
  ),
  CONTROL_PLANE_REQUEST_MISMATCH: entry(409, CONFLICT, 'The control-plane request is for another action, target or payload'),
  CONTROL_PLANE_REQUEST_CONSUMED: entry(
    409,
    CONFLICT,
    'The control-plane request was already used: each executed request authorizes one change',
  ),
  CONTROL_PLANE_REQUEST_NOT_PENDING: entry(409, CONFLICT, 'The control-plane request no longer takes approvals'),
  CONTROL_PLANE_REQUEST_NOT_CANCELLABLE: entry(
    409,
    CONFLICT,
    'The control-plane request can no longer be cancelled: it was consumed or cancelled, or it is a money request already approved',
  ),
  CONTROL_PLANE_ALREADY_APPROVED: entry(409, CONFLICT, 'This approver already approved this request'),
  CONTROL_PLANE_APPROVER_REQUIRED: entry(
    403,
    FORBIDDEN,
    'This operation needs a control-plane approver (CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS)',
  ),
  CONTROL_PLANE_REQUESTER_CANNOT_APPROVE: entry(
    403,
    FORBIDDEN,
    'The requester cannot approve their own request (CONTROL_PLANE_ENFORCE_REQUESTER_CANNOT_APPROVE=1)',
  ),
  CONTROL_PLANE_CANCEL_FORBIDDEN: entry(
    403,
    FORBIDDEN,
    'Only the initiator or a content admin can cancel a governance request; only the initiator a money request',
  ),
  SECOND_APPROVAL_REQUIRED: entry(
    409,
    CONFLICT,
    'This payout is above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: a second rewards admin must approve it first',
    'File POST /v1/admin/control-plane/requests with the action, target and payload this answer names; once another rewards admin approved it (EXECUTED), send its id as controlPlaneRequestId',
  ),

  // reader accounts (bookmarks, followed topics, personalization history, export)
  NAME_TAKEN: entry(409, CONFLICT, 'Another person holds this display name (names are compared without case)', 'Choose another name'),
  TOPIC_LIMIT_REACHED: entry(
    409,
    CONFLICT,
    'You follow the most topics a reader may follow',
    'Unfollow a topic (DELETE /v1/users/me/topics/{topic}) before following another',
  ),
  // verified agents (World AgentKit)
  AGENTBOOK_UNAVAILABLE: entry(503, 'Service unavailable', 'The AgentBook registry could not be read now', 'Retry later'),
  AGENT_WALLET_IN_USE: entry(
    409,
    CONFLICT,
    'This agent wallet is already bound to another bot',
    'Register a separate wallet in AgentBook for this bot',
  ),
  AGENT_KEY_REVOKED: entry(409, CONFLICT, 'This signing key was revoked', 'Sign with an active key of the bot'),
  AGENT_KEY_PROOF_INVALID: entry(
    400,
    BAD_REQUEST,
    'keyProof does not verify: the new key must sign "svc-agent-key-v1:{aud}.{botId}.{publicKey}"',
    'Sign the key message with the new key and send it base64url as addKey.keyProof',
  ),
  AGENT_LAST_KEY: entry(409, CONFLICT, 'A bot keeps at least one active signing key', 'Add a new key before revoking this one'),
  // rewards, settlements, payouts, fraud review and freezes
  REWARDS_PAUSED: entry(
    409,
    CONFLICT,
    'The rewards policy is not ACTIVE: settlements do not run',
    'An admin sets the policy status to ACTIVE',
  ),
  NOTHING_TO_SETTLE: entry(
    409,
    CONFLICT,
    'No story has a closed reward window that no settlement covered',
    'Run again after more reward windows have closed',
  ),
  USER_MISMATCH: entry(403, FORBIDDEN, 'These rewards reads are only for the signed caller: userId must equal actorId'),
  RECIPIENT_IDENTITY_REQUIRED: entry(
    409,
    CONFLICT,
    'A payout recipient needs a top-tier (L3) human identity bound to this actor',
    'Log in with World ID (POST /v1/session/worldid/challenge and /verify), then sign with verified=true and your linkedHumanId',
  ),
  RECIPIENT_REQUIRED: entry(
    409,
    CONFLICT,
    'Wallet binding needs a payout recipient with accepted terms',
    'Accept the payout terms first: POST /v1/rewards/recipient',
  ),
  RECIPIENT_FROZEN: entry(409, CONFLICT, 'This payout recipient is frozen for review'),
  WALLET_CHALLENGE_NOT_FOUND: entry(409, CONFLICT, 'No wallet challenge of this recipient has this id'),
  WALLET_CHALLENGE_USED: entry(409, CONFLICT, 'This wallet challenge was already used', 'Ask for a new challenge'),
  WALLET_CHALLENGE_EXPIRED: entry(409, CONFLICT, 'This wallet challenge has expired', 'Ask for a new challenge'),
  WALLET_SIGNATURE_INVALID: entry(
    400,
    BAD_REQUEST,
    'The signature does not recover the challenged address over the exact challenge message (EIP-191)',
  ),
  PAID_ACTION_BUDGET_EXHAUSTED: entry(
    429,
    'Too many requests',
    'The daily paid-action budget is used up',
    'Wait for the budget to reset (GET /v1/rewards/budget says when)',
  ),
  // bot owners: the person a verified bot's payouts go to
  BOT_OWNER_IDENTITY_REQUIRED: entry(
    409,
    CONFLICT,
    'Owning a bot needs a top-tier (L3) human identity bound to this actor',
    'Log in with World ID (POST /v1/session/worldid/challenge and /verify), then sign with verified=true and your linkedHumanId',
  ),
  BOT_OWNER_BOT_NOT_VERIFIED: entry(
    409,
    CONFLICT,
    'Only a self-serve bot verified with an AgentKit wallet can be claimed',
    'The bot verifies first: POST /v1/agents/verify with an agentproof',
  ),
  BOT_OWNER_WALLET_MISMATCH: entry(
    403,
    FORBIDDEN,
    'This wallet is not the one the bot verified with',
    'Sign with the wallet the bot verified with (walletAddress in its verification answer)',
  ),
  BOT_ALREADY_OWNED: entry(
    409,
    CONFLICT,
    'This bot already has an owner',
    'Its owner unlinks it first (POST /v1/rewards/bot-owners/unlink)',
  ),
  BOT_OWNER_CHALLENGE_NOT_FOUND: entry(409, CONFLICT, 'No ownership challenge of this person has this id'),
  BOT_OWNER_CHALLENGE_USED: entry(409, CONFLICT, 'This ownership challenge was already used', 'Ask for a new challenge'),
  BOT_OWNER_CHALLENGE_EXPIRED: entry(409, CONFLICT, 'This ownership challenge has expired', 'Ask for a new challenge'),
  BOT_OWNER_CHALLENGE_STALE: entry(
    409,
    CONFLICT,
    'The bot is no longer verified with the wallet of this challenge, or AgentBook no longer maps that wallet to its human',
    'Verify the bot again if needed, then ask for a new challenge',
  ),
  BOT_OWNER_SIGNATURE_INVALID: entry(
    400,
    BAD_REQUEST,
    "walletSignature does not recover the bot's wallet over the exact challenge message (EIP-191)",
    "Sign the challenge's message with the bot's wallet (personal_sign)",
  ),
  BOT_OWNER_CONSENT_INVALID: entry(
    400,
    BAD_REQUEST,
    "botConsent does not verify: an active key of the bot must sign the challenge's consentMessage (Ed25519)",
    'Sign consentMessage with the bot key (SDK: signBotOwnerConsent) and send its key version',
  ),
  BOT_NOT_OWNED_BY_CALLER: entry(403, FORBIDDEN, 'This bot has no current owner, or its owner is not the signed person'),
  REVIEW_CASE_TRANSITION_INVALID: entry(409, CONFLICT, 'The review case cannot make this move from its current state'),
  ALREADY_FROZEN: entry(409, CONFLICT, 'This target is already frozen'),
  NOT_FROZEN: entry(409, CONFLICT, 'This target is not frozen'),
  FINDING_ALREADY_DISMISSED: entry(409, CONFLICT, 'This finding of the cartel analysis is already dismissed'),
  NO_REWARDS_RECIPIENT: entry(
    409,
    CONFLICT,
    'Nobody behind this member is a rewards recipient: there are no payouts of theirs to freeze',
    "Freeze the stories the cluster boosted instead (the story's rewards freeze)",
  ),
  // moderation, legal holds, corrections and retractions
  LEGAL_HOLD_ACTIVE: entry(
    409,
    CONFLICT,
    'The story is under an active legal hold: it cannot be corrected, retracted, revised or hidden',
    'Release the hold first (POST /v1/admin/moderation/legal-holds with action RELEASE)',
  ),
  LEGAL_HOLD_EXISTS: entry(409, CONFLICT, 'The story already has an active legal hold'),
  LEGAL_HOLD_NOT_ACTIVE: entry(409, CONFLICT, 'The legal hold was already released'),
  QUARANTINE_HARD_BLOCK: entry(
    409,
    CONFLICT,
    'A story whose safety trace names a hard-block category cannot be released (forced ALLOW refused)',
    'KEEP or BLOCK it, or have its author submit a new packet',
  ),
  QUARANTINE_ALREADY_DECIDED: entry(409, CONFLICT, 'This quarantine item was already released or blocked'),
  // the claim rail (Merkle distribution batches, proofs, receipts, on-chain freeze evidence)
  CLAIMS_DISABLED: entry(404, 'Not found', 'Claims disabled: the claim rail is off (CLAIMS_ENABLED=0)'),
  CLAIM_RAIL_NOT_CONFIGURED: entry(
    409,
    CONFLICT,
    'The claim rail is not configured',
    'Set CLAIMS_ENABLED=1, CHAIN_RPC_URL and CLAIM_DISTRIBUTOR_ADDRESS (docs/claims.md)',
  ),
  NOTHING_TO_DISTRIBUTE: entry(409, CONFLICT, 'No payable payout is left outside a distribution batch'),
  CLAIM_RECEIPT_MISMATCH: entry(
    409,
    CONFLICT,
    'The transaction does not match the configured claim rail or the distribution manifest',
    'Submit the hash of your successful claim transaction on the distributor, for your leaf of this batch',
  ),
  CLAIM_RECEIPT_UNCONFIRMED: entry(
    425,
    'Too early',
    'The claim transaction has too few confirmations',
    'Submit the receipt again after more blocks (retryAfterSeconds)',
  ),
  CLAIM_ALREADY_RECORDED: entry(409, CONFLICT, 'This claim (or this transaction) was already recorded'),
  BATCH_CHAIN_EVIDENCE_REQUIRED: entry(
    409,
    CONFLICT,
    'This batch has an on-chain distributor: the change needs the hash of the finalized on-chain transaction',
    'Send freeze(batchId) or unfreeze(batchId) to the distributor, wait for finality, then retry with its hash',
  ),
  BATCH_CHAIN_EVIDENCE_INVALID: entry(
    409,
    CONFLICT,
    'The transaction is not a finalized, successful call on the batch distributor that sets the batch frozen or unfrozen',
  ),
  CHAIN_UNAVAILABLE: entry(503, 'Service unavailable', 'The chain node (CHAIN_RPC_URL) did not answer', 'Retry later'),

  // a server the service depends on is unreachable: nothing was accepted, the same request may be retried
  DATABASE_UNAVAILABLE: entry(
    503,
    'Service unavailable',
    'The database is unreachable; nothing was written',
    'Retry after retryAfterSeconds (a signed write needs a fresh nonce and timestamp)',
  ),
  REDIS_UNAVAILABLE: entry(
    503,
    'Service unavailable',
    'Redis (nonces, rate limits, read generations) is unreachable; the request was not accepted',
    'Retry after retryAfterSeconds (a signed write needs a fresh nonce and timestamp)',
  ),
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
