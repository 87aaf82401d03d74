import { createHash } from 'node:crypto';
import { UndirectedGraph } from 'graphology';
import louvainModule from 'graphology-communities-louvain';
import { channelModel, countIn, scoreEdges, type ChannelModel, type EdgeThresholds, type ScoredEdge } from './co-action-edges.js';
import { CO_CHANNELS, collectActs, nodeOf, type Act, type Channel, type Interactions, type MemberKind } from './interactions.js';
import { seededRandom } from './seeded-random.js';

// The package is CommonJS whose typings declare an ES default export: at run time the import is the function.
const louvain = louvainModule as unknown as typeof louvainModule.default;

/** The name and version of the method, answered with every analysis (docs/integrity.md describes it). */
export const METHOD = 'npmi-co-action-louvain/1';

export interface AnalysisParameters extends EdgeThresholds {
  windowDays: number;
  minClusterSize: number;
  /** a member must direct at least this share of its acts into the cluster */
  minInsideShare: number;
  /** the cluster's inside acts must reach this multiple of what chance predicts */
  minLift: number;
  /** Louvain resolution (1: plain modularity) */
  resolution: number;
  /** seed of Louvain's node order */
  seed: number;
}

export const DEFAULT_PARAMETERS: AnalysisParameters = {
  windowDays: 30,
  minClusterSize: 2,
  minPairCount: 3,
  minNpmi: 0.2,
  maxCoActors: 50,
  maxChanceEdges: 5,
  minInsideShare: 0.5,
  minLift: 2,
  resolution: 1,
  seed: 1,
};

export interface ClusterEdge {
  from: string;
  to: string;
  channel: Channel;
  directed: boolean;
  count: number;
  expected: number;
  npmi: number;
  pValue: number;
}

export interface ClusterMember {
  id: string;
  kind: MemberKind;
  acts: number;
  insideActs: number;
  insideShare: number;
  expectedInsideShare: number;
  /** directed acts (attestations, accepted revisions, up-votes) others did for this member, and how many by members */
  received: number;
  receivedInside: number;
}

export interface Cluster {
  id: string;
  members: string[];
  size: number;
  score: number;
  evidence: {
    members: ClusterMember[];
    edges: ClusterEdge[];
    insideActs: number;
    expectedInsideActs: number;
    lift: number;
    meanInsideShare: number;
    reciprocity: number | null;
    storyIds: string[];
    storyCount: number;
    proposalIds: string[];
    proposalCount: number;
  };
}

export interface AnalysisSummary {
  bots: number;
  actors: number;
  acts: number;
  pairsScored: number;
  edges: number;
  communities: number;
}

const EVIDENCE_ID_LIMIT = 100;
const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Co-attesting a third party's story is what every bot on a popular story does: it links, but is not "inside". */
const CO_ATTESTS = CO_CHANNELS.indexOf('coAttests');
/** Additive smoothing of an object's pull on non-members (a story no outsider touched still could be chosen). */
const CO_SMOOTHING = 0.1;

/**
 * Whether an act of member m stays inside `set`: done for another member (attesting their story, accepting
 * their revision, up-voting their story), or done together with another member on the same object
 * (objecting, flagging, voting a revision or reward-voting alongside them).
 */
function isInsideAct(act: Act, m: number, set: Set<number>, model: ChannelModel): boolean {
  if (act.target >= 0 && set.has(act.target)) return true;
  if (act.co === CO_ATTESTS) return false;
  const participants = model.participants[act.co]!.get(act.object);
  return Boolean(participants?.some((q) => q !== m && set.has(q)));
}

/**
 * Where one member's acts go, given the set it is judged with, and how many would land inside by chance
 * (within the act's room): the share of non-members' acts that go to members' work (directed), plus
 * (co-action) the chance that another member b acts on the same object if members chose objects as
 * non-members do: Σ_b n_b · (k_out(s) + 0.1) / (K_out + 0.1 · objects).
 */
function memberActivity(acts: Act[], m: number, set: Set<number>, model: ChannelModel, sums: SetSums) {
  let inside = 0;
  let expected = 0;
  for (const act of acts) {
    if (isInsideAct(act, m, set, model)) inside++;
    const r = act.stratum;
    let p = 0;
    if (act.directed >= 0) p += sums.outsidePopularity[act.directed]!.get(r) ?? 0;
    const participants = act.co === CO_ATTESTS ? undefined : model.participants[act.co]!.get(act.object);
    if (participants) {
      // the object's pull on non-members, so a crowd of honest readers makes meeting likely and an obscure
      // story only the members touch does not
      const outsiders = participants.reduce((k, q) => k + (set.has(q) ? 0 : 1), 0);
      const members = sums.n[act.co]!.get(r) ?? 0;
      const others = members - countIn(model.n[act.co]!, model, m, r);
      const pool = model.K[act.co]![r]! - members + CO_SMOOTHING * model.objects[act.co]![r]!;
      p += (others * (outsiders + CO_SMOOTHING)) / pool;
    }
    expected += Math.min(1, p);
  }
  return { inside, expected };
}

interface SetSums {
  /** per directed channel, per room: the share of non-members' acts that go to members' work */
  outsidePopularity: Map<number, number>[];
  /** per co-action channel, per room: Σ n over the members */
  n: Map<number, number>[];
}

/**
 * What chance predicts for a set, per room: how attractive the members' work is to everyone else (popular
 * authors are not suspicious for being attested), and how active the members are on each co-action channel.
 */
function setSums(set: Set<number>, model: ChannelModel, actsOf: Act[][]): SetSums {
  const members = [...set];
  const outsidePopularity = model.received.map((received, d) => {
    const toMembers = new Map<number, number>();
    const byMembers = new Map<number, number>();
    for (const m of members) {
      for (const r of model.strataOf[m]!) {
        toMembers.set(r, (toMembers.get(r) ?? 0) + countIn(received, model, m, r));
        byMembers.set(r, (byMembers.get(r) ?? 0) + countIn(model.out[d]!, model, m, r));
      }
      for (const act of actsOf[m]!)
        if (act.directed === d && set.has(act.target)) toMembers.set(act.stratum, toMembers.get(act.stratum)! - 1);
    }
    const share = new Map<number, number>();
    for (const [r, to] of toMembers) {
      const byOthers = model.total[d]![r]! - byMembers.get(r)!;
      share.set(r, byOthers > 0 ? Math.max(0, to) / byOthers : 0);
    }
    return share;
  });
  const n = model.n.map((counts) => {
    const sum = new Map<number, number>();
    for (const m of members) for (const r of model.strataOf[m]!) sum.set(r, (sum.get(r) ?? 0) + countIn(counts, model, m, r));
    return sum;
  });
  return { outsidePopularity, n };
}

/** Groups of `set` connected by the edges among them, each sorted, in the order of their first member. */
function components(set: Set<number>, edges: ScoredEdge[]): number[][] {
  const parent = new Map<number, number>([...set].map((m) => [m, m]));
  const find = (x: number): number => {
    while (parent.get(x)! !== x) x = parent.get(x)!;
    return x;
  };
  for (const e of edges) if (set.has(e.a) && set.has(e.b)) parent.set(find(e.a), find(e.b));
  const groups = new Map<number, number[]>();
  for (const m of [...set].sort((x, y) => x - y)) {
    const root = find(m);
    groups.set(root, [...(groups.get(root) ?? []), m]);
  }
  return [...groups.values()];
}

/**
 * Finds the groups that act for each other far more than chance explains. Pure and deterministic: the same
 * data (in any order) and parameters give the same clusters, byte for byte. Steps (docs/integrity.md):
 * 1. acts per channel and the chance model of each channel (co-action-edges.ts);
 * 2. pairs scored by NPMI of their observed count against chance; the strong ones are edges;
 * 3. Louvain communities on the edge graph (seeded);
 * 4. each community pruned to the members that keep at least `minInsideShare` of their acts inside it,
 *    split into connected parts, and kept when its inside acts reach `minLift` × chance.
 */
export function analyzeCartels(data: Interactions, p: AnalysisParameters): { summary: AnalysisSummary; clusters: Cluster[] } {
  const { nodes, acts, strata } = collectActs(data);
  const N = nodes.keys.length;
  const model = channelModel(acts, N, strata, p.maxCoActors);
  const { edges, scored } = scoreEdges(acts, N, model, p);
  const actsOf: Act[][] = Array.from({ length: N }, () => []);
  const receivedOf: Act[][] = Array.from({ length: N }, () => []);
  for (const act of acts) {
    actsOf[act.node]!.push(act);
    if (act.target >= 0) receivedOf[act.target]!.push(act);
  }

  const graph = new UndirectedGraph<Record<string, never>, { weight: number }>();
  const weights = new Map<number, number>();
  for (const e of edges) {
    const [x, y] = e.a < e.b ? [e.a, e.b] : [e.b, e.a];
    const key = x * N + y;
    weights.set(key, (weights.get(key) ?? 0) + e.npmi * Math.log2(1 + e.count));
  }
  const touched = [...new Set(edges.flatMap((e) => [e.a, e.b]))].sort((x, y) => x - y);
  for (const m of touched) graph.addNode(String(m));
  for (const key of [...weights.keys()].sort((x, y) => x - y))
    graph.addEdge(String(Math.floor(key / N)), String(key % N), { weight: weights.get(key)! });
  const communities = new Map<number, number[]>();
  if (graph.size > 0) {
    const found = louvain.detailed(graph, { getEdgeWeight: 'weight', rng: seededRandom(p.seed), resolution: p.resolution });
    for (const m of touched) {
      const c = found.communities[String(m)]!;
      communities.set(c, [...(communities.get(c) ?? []), m]);
    }
  }

  const clusters: Cluster[] = [];
  const queue = [...communities.values()].filter((c) => c.length >= p.minClusterSize);
  while (queue.length > 0) {
    const set = new Set(queue.shift()!);
    // prune: a member's share can only fall when others leave, so removing all below the bar repeats to a fixpoint
    for (;;) {
      const sums = setSums(set, model, actsOf);
      // a beneficiary (no acts of its own in the window: an author others act for) is judged by where what it
      // received came from; everyone else by where their own acts go
      const low = [...set].filter((m) => {
        if (actsOf[m]!.length === 0)
          return receivedFrom(receivedOf[m]!, set) < p.minInsideShare * receivedOf[m]!.length || receivedOf[m]!.length === 0;
        const a = memberActivity(actsOf[m]!, m, set, model, sums);
        return a.inside < p.minInsideShare * actsOf[m]!.length;
      });
      if (low.length === 0) break;
      for (const m of low) set.delete(m);
    }
    if (set.size < p.minClusterSize) continue;
    const parts = components(set, edges);
    if (parts.length > 1) {
      queue.push(...parts.filter((c) => c.length >= p.minClusterSize));
      continue;
    }
    const cluster = describeCluster(set, { nodes: nodes.keys, actsOf, receivedOf, model, edges });
    if (cluster.evidence.edges.length > 0 && cluster.evidence.lift >= p.minLift) clusters.push(cluster);
  }
  clusters.sort((x, y) => y.score - x.score || y.size - x.size || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const kinds = nodes.keys.map((k) => nodeOf(k).kind);
  return {
    summary: {
      bots: kinds.filter((k) => k === 'bot').length,
      actors: kinds.filter((k) => k === 'actor').length,
      acts: acts.length,
      pairsScored: scored,
      edges: edges.length,
      communities: communities.size,
    },
    clusters,
  };
}

/** How many of the acts a node received were done by members of `set`. */
function receivedFrom(received: Act[], set: Set<number>): number {
  return received.reduce((n, act) => n + (set.has(act.node) ? 1 : 0), 0);
}

function describeCluster(
  set: Set<number>,
  g: { nodes: string[]; actsOf: Act[][]; receivedOf: Act[][]; model: ChannelModel; edges: ScoredEdge[] },
): Cluster {
  const members = [...set].sort((x, y) => x - y);
  const sums = setSums(set, g.model, g.actsOf);
  const stories = new Set<string>();
  const proposals = new Set<string>();
  let insideActs = 0;
  let expectedInsideActs = 0;
  const memberEvidence = members.map((m) => {
    const acts = g.actsOf[m]!;
    const a = memberActivity(acts, m, set, g.model, sums);
    for (const act of acts) {
      if (!isInsideAct(act, m, set, g.model)) continue;
      stories.add(act.storyId);
      if (act.proposalId) proposals.add(act.proposalId);
    }
    insideActs += a.inside;
    expectedInsideActs += a.expected;
    const node = nodeOf(g.nodes[m]!);
    const received = g.receivedOf[m]!;
    return {
      id: node.id,
      kind: node.kind,
      acts: acts.length,
      insideActs: a.inside,
      insideShare: acts.length ? round(a.inside / acts.length) : 0,
      expectedInsideShare: acts.length ? round(a.expected / acts.length) : 0,
      received: received.length,
      receivedInside: receivedFrom(received, set),
    };
  });
  const inside = g.edges.filter((e) => set.has(e.a) && set.has(e.b));
  const directedKeys = new Set(inside.filter((e) => !e.channel.startsWith('co')).map((e) => `${e.channel}:${e.a}:${e.b}`));
  const reciprocated = inside.filter((e) => directedKeys.has(`${e.channel}:${e.b}:${e.a}`)).length;
  // the mean over members who acted (a beneficiary has no share of its own)
  const acting = memberEvidence.filter((m) => m.acts > 0);
  const meanInsideShare = acting.length ? acting.reduce((s, m) => s + m.insideActs / m.acts, 0) / acting.length : 0;
  const lift = insideActs / Math.max(expectedInsideActs, 1e-3);
  const keys = members.map((m) => g.nodes[m]!);
  const sortedStories = [...stories].sort();
  const sortedProposals = [...proposals].sort();
  return {
    id: `cartel_${createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 16)}`,
    members: memberEvidence.map((m) => m.id),
    size: members.length,
    score: round(meanInsideShare * Math.log(Math.max(lift, 1))),
    evidence: {
      members: memberEvidence,
      edges: inside.map((e) => ({
        from: nodeOf(g.nodes[e.a]!).id,
        to: nodeOf(g.nodes[e.b]!).id,
        channel: e.channel,
        directed: !e.channel.startsWith('co'),
        count: e.count,
        expected: round(e.expected),
        npmi: round(e.npmi),
        pValue: Number(e.pValue.toPrecision(6)),
      })),
      insideActs,
      expectedInsideActs: round(expectedInsideActs),
      lift: round(lift),
      meanInsideShare: round(meanInsideShare),
      reciprocity: directedKeys.size > 0 ? round(reciprocated / directedKeys.size) : null,
      storyIds: sortedStories.slice(0, EVIDENCE_ID_LIMIT),
      storyCount: sortedStories.length,
      proposalIds: sortedProposals.slice(0, EVIDENCE_ID_LIMIT),
      proposalCount: sortedProposals.length,
    },
  };
}
