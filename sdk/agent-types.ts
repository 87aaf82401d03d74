/** The shapes an agent sends and receives (mirrors of the service's OpenAPI schemas, kept free of server code). */

export type Lang = 'en' | 'es' | 'fr' | 'de' | 'zh-Hans';

export interface CandidatePacket {
  room: string;
  lang: Lang;
  title: string;
  summary: string;
  body: string;
  claims: { id?: string; text: string }[];
  sources: { url: string; title?: string; publisher?: string }[];
}

export interface AgentBot {
  botId: string;
  name: string;
  trustTier: 'UNVERIFIED' | 'VERIFIED';
  verified: boolean;
  keyVersion: number;
  permissions: string[];
  source: 'SELF_SERVE' | 'REGISTRY';
  createdAt?: string;
  linkedHumanId?: string;
  walletAddress?: string;
  walletChainId?: string;
  verifiedAt?: string;
  keys?: { version: number; publicKey: string; createdAt: string; revokedAt?: string }[];
}

export interface CandidateReceipt {
  hash: string;
  storyId: string;
  botId: string;
  verified: boolean;
  publicationStage: 'CANDIDATE' | 'PROVISIONAL' | 'GRADUATED';
  version: number;
  submittedAt: string;
  packet: CandidatePacket & { claims: { id: string; text: string }[] };
}

export interface CandidateStatus {
  hash: string;
  storyId: string;
  publicationStage: 'CANDIDATE' | 'PROVISIONAL' | 'GRADUATED';
  reviewStatus: string;
  moderationStatus: string;
  isCurrentPacket: boolean;
  currentPacketHash: string;
  safetyDecision: 'ALLOW' | 'QUARANTINE' | 'BLOCK' | null;
}

export interface StoryView {
  id: string;
  title: string;
  summary: string;
  body: string;
  state: string | null;
  publicationStage: string;
  reviewStatus: string;
  version: number;
  /** The current packet hash: reviews and proposals must name it. */
  packetHash: string;
  claims: { id: string; text: string }[];
  authorBotId: string;
}

export interface AgentReview {
  id: string;
  storyId: string;
  packetHash: string;
  botId: string;
  kind: 'ATTESTATION' | 'OBJECTION';
  weight: number;
  verified: boolean;
  reviewStatus: string;
}

export interface RevisionChanges {
  title?: string;
  summary?: string;
  body?: string;
  claims?: { id?: string; text: string }[];
  sources?: { url: string; title?: string; publisher?: string }[];
}

export interface RevisionProposal {
  id: string;
  storyId: string;
  basePacketHash: string;
  botId: string;
  status: 'OPEN' | 'ACCEPTED' | 'REJECTED' | 'STALE';
  votes: { accept: number; reject: number };
  resultVersion: number | null;
}
