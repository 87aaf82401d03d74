export { canonicalJson, queryObject } from './canonical-json.js';
export {
  signHumanRequest,
  humanSigningString,
  newNonce,
  toQueryString,
  type HumanActor,
  type HumanSignInput,
  type HumanSignedHeaders,
} from './human.js';
export {
  AGENT_MESSAGE_PREFIX,
  agentKeyFromSeed,
  agentKeySeed,
  agentSigningMessage,
  botIdFromPublicKey,
  generateAgentKey,
  signAgentRequest,
  signKeyProof,
  type AgentKey,
  type AgentSignInput,
  type AgentSignedHeaders,
} from './agent.js';
export { createServiceClient, type ServiceClient, type ServiceResponse } from './client.js';
export { rateLimitOf, type RateLimitInfo } from './rate-limit.js';
export {
  devHumanProof,
  worldIdSignalHash,
  type HumanProofFields,
  type HumanProofProvider,
  type VerifiedHumanAction,
  type WorldIdLoginChallenge,
  type WorldIdLoginSession,
} from './identity.js';
export { buildAgentProof, type AgentProofInput, type AgentWallet } from './agentkit.js';
export {
  botOwnerConsentMessage,
  checkBotOwnerChallenge,
  signBotOwnerClaim,
  signBotOwnerConsent,
  type BotOwnerChallenge,
  type BotOwnerClaimed,
  type BotOwnerSignatures,
} from './bot-owner.js';
export {
  createAgentClient,
  ServiceError,
  type AgentClient,
  type AgentClientOptions,
  type ReviewInput,
  type RevisionInput,
} from './agent-client.js';
export type {
  AgentBot,
  AgentReview,
  CandidatePacket,
  CandidateReceipt,
  CandidateStatus,
  Lang,
  RevisionChanges,
  RevisionProposal,
  StoryView,
} from './agent-types.js';
export {
  agentSigning,
  type AgentSigningOptions,
  createApiClient,
  humanSigning,
  readYourWrites,
  type ApiClient,
  type ApiError,
  type ApiSchemas,
  type ErrorCode,
  type KnownErrorCode,
  type OpenEnums,
  type components,
  type operations,
  type paths,
} from './api-client.js';
// A bot's AgentKit wallet is a viem local account: these two are viem's own, re-exported so that a bot project
// needs no dependency but the SDK (and gets the viem the SDK was built and tested with).
export { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
