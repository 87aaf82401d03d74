import type { components } from './openapi.js';

/**
 * The shapes an agent sends and receives: the service's own schemas, from the types generated from its
 * OpenAPI document (./openapi.ts), so they cannot drift from what the service validates and answers.
 */
type Schemas = components['schemas'];

export type Lang = Schemas['SubmitCandidateRequest']['lang'];
/** A packet as a bot submits it (claim ids optional: the service numbers them). */
export type CandidatePacket = Omit<Schemas['SubmitCandidateRequest'], 'botId' | 'verified'>;
export type AgentBot = Schemas['Bot'];
export type CandidateReceipt = Schemas['Candidate'];
export type CandidateStatus = Schemas['CandidateStatus'];
export type StoryView = Schemas['Story'];
export type AgentReview = Schemas['Review'];
export type RevisionChanges = Schemas['RevisionChanges'];
export type RevisionProposal = Schemas['RevisionProposalResult'];
