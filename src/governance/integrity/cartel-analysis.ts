import { createHash } from 'node:crypto';
import { UndirectedGraph } from 'graphology';
import louvainModule from 'graphology-communities-louvain';
import { actsByNode, collectActs, type Acts, type ActsByNode, type CollectedActs } from './acts.js';
import { channelModel, countIn, type ChannelModel } from './chance-model.js';
import { scoreEdges, type EdgeThresholds, type ScoredEdge } from './co-action-edges.js';
import { CO_CHANNELS, nodeOf, type Channel, type Interactions, type MemberKind } from './interactions.js';
import { seededRandom } from './seeded-random.js';

// The package is CommonJS whose typings declare an ES default export: at run time the import is the function.
const louvain = louvainModule as unknown as typeof louvainModule.default;

/** The name and version of the method, answered with every analysis. */
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
 * The acts and what the clusters are judged by: each node's own acts and the acts done for it, in act order,
 * and the members of the set being judged (1 at a member: a look-up in an array, done for every participant of
 * every act of every member).
 */
interface Graph {
  acts: Acts;
  actsOf: ActsByNode;
  receivedOf: ActsByNode;
  model: ChannelModel;
  inSet: Uint8Array;
}

/** Runs `judge` with the members of `set` marked in `g.inSet`. */
function judging<T>(g: Graph, set: Set<number>, judge: () => T): T {
  for (const m of set) g.inSet[m] = 1;
  try {
    return judge();
  } finally {
    for (const m of set) g.inSet[m] = 0;
  }
}

/**
 * Whether act i of member m stays inside the set being judged: done for another member (attesting their story, accepting
 * their revision, up-voting their story), or done together with another member on the same object
 * (objecting, flagging, voting a revision or reward-voting alongside them).
 */
function isInsideAct(g: Graph, i: number, m: number): boolean {
  const target = g.acts.target[i]!;
  if (target >= 0 && g.inSet[target] === 1) return true;
  const c = g.acts.co[i]!;
  if (c === CO_ATTESTS) return false;
  const o = g.acts.object[i]!;
  const members = g.model.members[c]!;
  for (let j = g.model.memberStart[c]![o]!, end = j + g.model.memberCount[c]![o]!; j < end; j++) {
    const q = members[j]!;
    if (q !== m && g.inSet[q] === 1) return true;
  }
  return false;
}

/**
 * Where member m's acts go, given the set it is judged with (marked in `g.inSet`), and how many would land inside by chance
 * (within the act's room): the share of non-members' acts that go to members' work (directed), plus
 * (co-action) the chance that another member b acts on the same object if members chose objects as
 * non-members do: Σ_b n_b · (k_out(s) + 0.1) / (K_out + 0.1 · objects).
 */
function memberActivity(g: Graph, m: number, sums: SetSums) {
  const { acts, model } = g;
  let inside = 0;
  let expected = 0;
  for (let k = g.actsOf.start[m]!; k < g.actsOf.start[m + 1]!; k++) {
    const i = g.actsOf.list[k]!;
    if (isInsideAct(g, i, m)) inside++;
    const r = acts.stratum[i]!;
    const d = acts.directed[i]!;
    const c = acts.co[i]!;
    let p = 0;
    if (d >= 0) p += sums.outsidePopularity[d]!.get(r) ?? 0;
    const size = c === CO_ATTESTS ? 0 : model.memberCount[c]![acts.object[i]!]!;
    if (size > 0) {
      // the object's pull on non-members, so a crowd of honest readers makes meeting likely and an obscure
      // story only the members touch does not
      let outsiders = 0;
      for (let j = model.memberStart[c]![acts.object[i]!]!, end = j + size; j < end; j++)
        outsiders += g.inSet[model.members[c]![j]!] === 1 ? 0 : 1;
      const members = sums.n[c]!.get(r) ?? 0;
      const others = members - countIn(model.n[c]!, model, m, r);
      const pool = model.K[c]![r]! - members + CO_SMOOTHING * model.objects[c]![r]!;
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
 * What chance predicts for a set (marked in `g.inSet`), per room: how attractive the members' work is to everyone else (popular
 * authors are not suspicious for being attested), and how active the members are on each co-action channel.
 */
function setSums(set: Set<number>, g: Graph): SetSums {
  const { acts, model } = g;
  const members = [...set];
  const outsidePopularity = model.received.map((received, d) => {
    const toMembers = new Map<number, number>();
    const byMembers = new Map<number, number>();
    for (const m of members) {
      for (let j = model.strataStart[m]!; j < model.strataStart[m + 1]!; j++) {
        const r = model.strataList[j]!;
        toMembers.set(r, (toMembers.get(r) ?? 0) + received[j]!);
        byMembers.set(r, (byMembers.get(r) ?? 0) + model.out[d]![j]!);
      }
      for (let k = g.actsOf.start[m]!; k < g.actsOf.start[m + 1]!; k++) {
        const i = g.actsOf.list[k]!;
        if (acts.directed[i] === d && g.inSet[acts.target[i]!] === 1) toMembers.set(acts.stratum[i]!, toMembers.get(acts.stratum[i]!)! - 1);
      }
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
    for (const m of members)
      for (let j = model.strataStart[m]!; j < model.strataStart[m + 1]!; j++) {
        const r = model.strataList[j]!;
        sum.set(r, (sum.get(r) ?? 0) + counts[j]!);
      }
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

/** The rows of a window held whole, analyzed (tests and the simulator's plans; the service streams its rows into `analyzeActs`). */
export function analyzeCartels(data: Interactions, p: AnalysisParameters): { summary: AnalysisSummary; clusters: Cluster[] } {
  return analyzeActs(collectActs(data), p);
}

/**
 * Finds the groups that act for each other far more than chance explains. Pure and deterministic: the same
 * data (in any order) and parameters give the same clusters, byte for byte. Steps (docs/integrity.md):
 * 1. acts per channel (acts.ts) and the chance model of each channel (chance-model.ts);
 * 2. pairs scored by NPMI of their observed count against chance; the strong ones are edges (co-action-edges.ts);
 * 3. Louvain communities on the edge graph (seeded);
 * 4. each community pruned to the members that keep at least `minInsideShare` of their acts inside it,
 *    split into connected parts, and kept when its inside acts reach `minLift` × chance.
 */
export function analyzeActs(collected: CollectedActs, p: AnalysisParameters): { summary: AnalysisSummary; clusters: Cluster[] } {
  const { keys, acts, strata } = collected;
  const N = keys.length;
  const model = channelModel(acts, N, strata, collected.objectCounts, p.maxCoActors);
  const actsOf = actsByNode(acts.node, N);
  const { edges, scored } = scoreEdges(acts, actsOf, N, model, p);
  const g: Graph = { acts, actsOf, receivedOf: actsByNode(acts.target, N), model, inSet: new Uint8Array(N) };
  const actCount = (m: number) => actsOf.start[m + 1]! - actsOf.start[m]!;
  const receivedCount = (m: number) => g.receivedOf.start[m + 1]! - g.receivedOf.start[m]!;

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
      const low = judging(g, set, () => {
        const sums = setSums(set, g);
        // a beneficiary (no acts of its own in the window: an author others act for) is judged by where what it
        // received came from; everyone else by where their own acts go
        return [...set].filter((m) => {
          if (actCount(m) === 0) return receivedFrom(g, m) < p.minInsideShare * receivedCount(m) || receivedCount(m) === 0;
          return memberActivity(g, m, sums).inside < p.minInsideShare * actCount(m);
        });
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
    const cluster = judging(g, set, () => describeCluster(set, g, collected, edges));
    if (cluster.evidence.edges.length > 0 && cluster.evidence.lift >= p.minLift) clusters.push(cluster);
  }
  clusters.sort((x, y) => y.score - x.score || y.size - x.size || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const kinds = keys.map((k) => nodeOf(k).kind);
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

/** How many of the acts done for node m were done by members of the set being judged. */
function receivedFrom(g: Graph, m: number): number {
  let n = 0;
  for (let k = g.receivedOf.start[m]!; k < g.receivedOf.start[m + 1]!; k++) if (g.inSet[g.acts.node[g.receivedOf.list[k]!]!] === 1) n++;
  return n;
}

/** The cluster `set` with its evidence (its members marked in `g.inSet`). */
function describeCluster(set: Set<number>, g: Graph, collected: CollectedActs, edges: ScoredEdge[]): Cluster {
  const { acts } = g;
  const nodes = collected.keys;
  const members = [...set].sort((x, y) => x - y);
  const sums = setSums(set, g);
  const stories = new Set<string>();
  const proposals = new Set<string>();
  let insideActs = 0;
  let expectedInsideActs = 0;
  const memberEvidence = members.map((m) => {
    const actCount = g.actsOf.start[m + 1]! - g.actsOf.start[m]!;
    const a = memberActivity(g, m, sums);
    for (let k = g.actsOf.start[m]!; k < g.actsOf.start[m + 1]!; k++) {
      const i = g.actsOf.list[k]!;
      if (!isInsideAct(g, i, m)) continue;
      stories.add(collected.storyIds[acts.story[i]!]!);
      if (acts.proposal[i]! >= 0) proposals.add(collected.proposalIds[acts.proposal[i]!]!);
    }
    insideActs += a.inside;
    expectedInsideActs += a.expected;
    const node = nodeOf(nodes[m]!);
    const received = g.receivedOf.start[m + 1]! - g.receivedOf.start[m]!;
    return {
      id: node.id,
      kind: node.kind,
      acts: actCount,
      insideActs: a.inside,
      insideShare: actCount ? round(a.inside / actCount) : 0,
      expectedInsideShare: actCount ? round(a.expected / actCount) : 0,
      received,
      receivedInside: receivedFrom(g, m),
    };
  });
  const inside = edges.filter((e) => set.has(e.a) && set.has(e.b));
  const directedKeys = new Set(inside.filter((e) => !e.channel.startsWith('co')).map((e) => `${e.channel}:${e.a}:${e.b}`));
  const reciprocated = inside.filter((e) => directedKeys.has(`${e.channel}:${e.b}:${e.a}`)).length;
  // the mean over members who acted (a beneficiary has no share of its own)
  const acting = memberEvidence.filter((m) => m.acts > 0);
  const meanInsideShare = acting.length ? acting.reduce((s, m) => s + m.insideActs / m.acts, 0) / acting.length : 0;
  const lift = insideActs / Math.max(expectedInsideActs, 1e-3);
  const keys = members.map((m) => nodes[m]!);
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
        from: nodeOf(nodes[e.a]!).id,
        to: nodeOf(nodes[e.b]!).id,
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
