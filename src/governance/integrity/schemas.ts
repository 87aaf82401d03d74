import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HumanActorBody } from '../../platform/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { CO_CHANNELS, DIRECTED_CHANNELS } from './interactions.js';
import { cartelAnalysisExample, cartelClusterExample } from './examples.js';

/** Cartel analysis: request and answer. docs/integrity.md explains every field. */

export const AnalyzeBody = Type.Object(
  {
    ...HumanActorBody,
    windowDays: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'Days of activity to analyze, ending now (default 30)' }),
    ),
    minClusterSize: Type.Optional(
      Type.Integer({ minimum: 2, maximum: 1000, default: 2, description: 'Fewest members a flagged cluster has (default 2: pairs)' }),
    ),
  },
  {
    title: 'CartelAnalysisRequest',
    description: 'Body of a cartel analysis: the actor fields, the window in days and the smallest cluster to flag.',
    additionalProperties: false,
  },
);
export type AnalyzeBody = Static<typeof AnalyzeBody>;

const Edge = Type.Object(
  {
    from: Type.String({ description: 'directed: who acted; co-action: one of the pair' }),
    to: Type.String({ description: 'directed: whose work it was for; co-action: the other of the pair' }),
    channel: StringEnum([...DIRECTED_CHANNELS, ...CO_CHANNELS]),
    directed: Type.Boolean(),
    count: Type.Integer({ description: 'acts observed in the window' }),
    expected: Type.Number({ description: 'acts chance predicts for this pair (configuration model)' }),
    npmi: Type.Number({ description: 'normalized pointwise mutual information of count against expected, -1 to 1' }),
    pValue: Type.Number({ description: 'P(X ≥ count) for X ~ Poisson(expected)' }),
  },
  {
    title: 'CartelEdge',
    description:
      'A pair of members that acts together far beyond chance on one channel: the observed and expected counts, the NPMI and the p-value.',
  },
);

const Member = Type.Object(
  {
    id: Type.String({ description: 'bot id or actor id' }),
    kind: StringEnum(['bot', 'actor']),
    acts: Type.Integer({ description: "the member's acts in the window" }),
    insideActs: Type.Integer({ description: 'acts for, or together with, other members' }),
    insideShare: Type.Number(),
    expectedInsideShare: Type.Number({ description: 'the share chance predicts' }),
    received: Type.Integer({ description: 'directed acts others did for this member (attestations, accepted revisions, up-votes)' }),
    receivedInside: Type.Integer({
      description: 'of those, done by members (a member with no acts of its own is a beneficiary, judged by this)',
    }),
  },
  {
    title: 'CartelMember',
    description:
      "One member of a flagged cluster (a bot or a reader's actor id): its acts, how many were inside the cluster, and the share chance predicts.",
  },
);

export const Cluster = Type.Object(
  {
    id: Type.String({ description: 'stable: derived from the members' }),
    members: Type.Array(Type.String(), { description: 'bot ids and actor ids' }),
    size: Type.Integer(),
    score: Type.Number({ description: 'meanInsideShare × ln(lift)' }),
    evidence: Type.Object({
      members: Type.Array(Member),
      edges: Type.Array(Edge, { description: 'the pairs inside the cluster that act together far beyond chance' }),
      insideActs: Type.Integer(),
      expectedInsideActs: Type.Number(),
      lift: Type.Number({ description: 'insideActs / expectedInsideActs' }),
      meanInsideShare: Type.Number(),
      reciprocity: Type.Union([Type.Number(), Type.Null()], {
        description: 'share of directed inside edges whose reverse is an edge too (null: none directed)',
      }),
      storyIds: Type.Array(Type.String(), { description: 'stories of the inside acts, sorted, at most 100' }),
      storyCount: Type.Integer(),
      proposalIds: Type.Array(Type.String(), { description: 'revision proposals of the inside acts, sorted, at most 100' }),
      proposalCount: Type.Integer(),
    }),
  },
  {
    title: 'CartelCluster',
    description:
      'A flagged cluster of bots and readers with its score and the evidence a person can check: each member, each edge, the lift over chance and the stories and proposals involved.',
    examples: [cartelClusterExample],
  },
);

export const AnalysisResponse = Type.Object(
  {
    method: Type.String(),
    parameters: Type.Object({
      windowDays: Type.Integer(),
      minClusterSize: Type.Integer(),
      minPairCount: Type.Integer(),
      minNpmi: Type.Number(),
      maxCoActors: Type.Integer(),
      maxChanceEdges: Type.Number(),
      minInsideShare: Type.Number(),
      minLift: Type.Number(),
      resolution: Type.Number(),
      seed: Type.Integer(),
    }),
    analyzedAt: DateTime,
    windowStart: DateTime,
    summary: Type.Object({
      bots: Type.Integer(),
      actors: Type.Integer(),
      acts: Type.Integer(),
      pairsScored: Type.Integer(),
      edges: Type.Integer(),
      communities: Type.Integer(),
    }),
    clusters: Type.Array(Cluster, { description: 'flagged clusters, highest score first' }),
  },
  {
    title: 'CartelAnalysis',
    description:
      'A stored cartel analysis: the method and its parameters, the window, what was scored and the flagged clusters, highest score first.',
    examples: [cartelAnalysisExample],
  },
);
export type AnalysisResponse = Static<typeof AnalysisResponse>;

/** Dismissing a finding (the console's integrity page): the actor fields and why. */
export const DismissFindingBody = Type.Object(
  { ...HumanActorBody, reason: Type.String({ minLength: 1, maxLength: 1000, description: 'why the finding is not collusion' }) },
  {
    title: 'DismissFindingRequest',
    description: 'Body that dismisses a finding of the cartel analysis: the actor fields and the reason.',
    additionalProperties: false,
  },
);
