import type { OpenEnums } from './api-client.js';
import type { components } from './openapi.js';

/**
 * The shapes an agent sends and receives: the service's own schemas, from the types generated from its
 * OpenAPI document (./openapi.ts), so they cannot drift from what the service validates and answers.
 */
type Schemas = components['schemas'];

// What the agent sends: the document's own enums, closed (the service refuses values it does not know).
export type Lang = Schemas['SubmitCandidateRequest']['lang'];
/** A packet as a bot submits it (claim ids optional: the service numbers them). */
export type CandidatePacket = Omit<Schemas['SubmitCandidateRequest'], 'botId' | 'verified'>;
export type RevisionChanges = Schemas['RevisionChanges'];

// What it receives: the same schemas with their enums open (OpenEnums), so a value added within /v1 reads as a string.
export type AgentBot = OpenEnums<Schemas['Bot']>;
export type CandidateReceipt = OpenEnums<Schemas['Candidate']>;
export type CandidateStatus = OpenEnums<Schemas['CandidateStatus']>;
export type StoryView = OpenEnums<Schemas['Story']>;
export type AgentReview = OpenEnums<Schemas['Review']>;
export type RevisionProposal = OpenEnums<Schemas['RevisionProposalResult']>;
