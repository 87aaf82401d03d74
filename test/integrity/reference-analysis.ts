import { createHash } from 'node:crypto';
import { UndirectedGraph } from 'graphology';
import louvainModule from 'graphology-communities-louvain';
import type { AnalysisParameters, Cluster, ClusterMember } from '../../src/governance/integrity/cartel-analysis.js';
import { npmi, poissonTail } from '../../src/governance/integrity/co-action-edges.js';
import { CO_CHANNELS, DIRECTED_CHANNELS, type Channel, type Interactions } from '../../src/governance/integrity/interactions.js';
import { seededRandom } from '../../src/governance/integrity/seeded-random.js';

/**
 * The cartel analysis written the plain way, as it was before it read its window as a stream: every row an
 * object, every act an object, string-keyed maps for objects and per-room counts, a map for pair counts. The
 * tests hold the service's analysis to this one, byte for byte. Only the scalar formulas (NPMI, the Poisson
 * tail) are shared.
 */

const louvain = louvainModule as unknown as typeof louvainModule.default;

interface Act {
  node: number;
  stratum: number;
  storyId: string;
  proposalId: string | null;
  directed: number;
  target: number;
  co: number;
  object: string;
}

function collectActs(data: Interactions) {
  const botIds = new Set<string>();
  const actorIds = new Set<string>();
  for (const r of data.reviews) botIds.add(r.botId).add(r.authorBotId);
  for (const v of data.revisionVotes) botIds.add(v.botId).add(v.proposerBotId);
  for (const v of data.rewardVotes) {
    actorIds.add(v.actorId);
    botIds.add(v.authorBotId);
  }
  for (const f of data.flags) actorIds.add(f.actorId);
  const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const actorList = [...actorIds].sort(byCodeUnit);
  const botList = [...botIds].sort(byCodeUnit);
  const keys = [...actorList.map((id) => `actor:${id}`), ...botList.map((id) => `bot:${id}`)];
  const actors = new Map(actorList.map((id, i) => [id, i]));
  const bots = new Map(botList.map((id, i) => [id, actorList.length + i]));
  const bot = (id: string) => bots.get(id)!;
  const actor = (id: string) => actors.get(id)!;
  const rooms = [...new Set([...data.reviews, ...data.revisionVotes, ...data.rewardVotes, ...data.flags].map((row) => row.room))].sort();
  const roomIndex = new Map(rooms.map((room, i) => [room, i]));
  const stratum = (room: string) => roomIndex.get(room)!;
  const acts: Act[] = [];
  for (const r of data.reviews) {
    const node = bot(r.botId);
    const author = bot(r.authorBotId);
    const attest = r.kind === 'ATTESTATION';
    const directed = attest && author !== node;
    acts.push({
      node,
      stratum: stratum(r.room),
      storyId: r.storyId,
      proposalId: null,
      directed: directed ? 0 : -1,
      target: directed ? author : -1,
      co: attest ? 0 : 1,
      object: r.storyId,
    });
  }
  for (const v of data.revisionVotes) {
    const node = bot(v.botId);
    const proposer = bot(v.proposerBotId);
    const accept = v.vote === 'ACCEPT' && proposer !== node;
    acts.push({
      node,
      stratum: stratum(v.room),
      storyId: v.storyId,
      proposalId: v.proposalId,
      directed: accept ? 1 : -1,
      target: accept ? proposer : -1,
      co: 2,
      object: `${v.proposalId}:${v.vote}`,
    });
  }
  for (const v of data.rewardVotes) {
    const up = v.vote === 'UP';
    acts.push({
      node: actor(v.actorId),
      stratum: stratum(v.room),
      storyId: v.storyId,
      proposalId: null,
      directed: up ? 2 : -1,
      target: up ? bot(v.authorBotId) : -1,
      co: 3,
      object: `${v.storyId}:${v.vote}`,
    });
  }
  const seenFlags = new Set<string>();
  for (const f of data.flags) {
    const key = `${f.actorId}\u0000${f.storyId}`;
    if (seenFlags.has(key)) continue;
    seenFlags.add(key);
    acts.push({
      node: actor(f.actorId),
      stratum: stratum(f.room),
      storyId: f.storyId,
      proposalId: null,
      directed: -1,
      target: -1,
      co: 4,
      object: f.storyId,
    });
  }
  return { keys, acts, strata: rooms.length };
}

interface Model {
  strata: number;
  out: Map<number, number>[];
  received: Map<number, number>[];
  total: Float64Array[];
  totalAll: number[];
  participants: Map<string, number[]>[];
  objectStratum: Map<string, number>[];
  n: Map<number, number>[];
  K: Float64Array[];
  S2: Float64Array[];
  objects: Float64Array[];
  strataOf: Set<number>[];
}

const bump = (map: Map<number, number>, key: number, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
const countIn = (map: Map<number, number>, model: Model, node: number, stratum: number) => map.get(node * model.strata + stratum) ?? 0;

function channelModel(acts: Act[], nodeCount: number, strata: number, maxCoActors: number): Model {
  const D = DIRECTED_CHANNELS.length;
  const C = CO_CHANNELS.length;
  const model: Model = {
    strata,
    out: Array.from({ length: D }, () => new Map()),
    received: Array.from({ length: D }, () => new Map()),
    total: Array.from({ length: D }, () => new Float64Array(strata)),
    totalAll: new Array<number>(D).fill(0),
    participants: Array.from({ length: C }, () => new Map()),
    objectStratum: Array.from({ length: C }, () => new Map()),
    n: Array.from({ length: C }, () => new Map()),
    K: Array.from({ length: C }, () => new Float64Array(strata)),
    S2: Array.from({ length: C }, () => new Float64Array(strata)),
    objects: Array.from({ length: C }, () => new Float64Array(strata)),
    strataOf: Array.from({ length: nodeCount }, () => new Set<number>()),
  };
  for (const act of acts) {
    model.strataOf[act.node]!.add(act.stratum);
    if (act.directed >= 0) {
      model.strataOf[act.target]!.add(act.stratum);
      bump(model.out[act.directed]!, act.node * strata + act.stratum);
      bump(model.received[act.directed]!, act.target * strata + act.stratum);
      model.total[act.directed]![act.stratum]! += 1;
      model.totalAll[act.directed]! += 1;
    }
    const objects = model.participants[act.co]!;
    const list = objects.get(act.object);
    if (list) list.push(act.node);
    else {
      objects.set(act.object, [act.node]);
      model.objectStratum[act.co]!.set(act.object, act.stratum);
    }
  }
  for (let c = 0; c < C; c++) {
    const objects = model.participants[c]!;
    for (const [object, list] of objects) {
      const members = [...new Set(list)].sort((x, y) => x - y);
      if (members.length > maxCoActors) {
        objects.delete(object);
        continue;
      }
      objects.set(object, members);
      const r = model.objectStratum[c]!.get(object)!;
      for (const m of members) bump(model.n[c]!, m * strata + r);
      model.K[c]![r]! += members.length;
      model.S2[c]![r]! += members.length * members.length;
      model.objects[c]![r]! += 1;
    }
  }
  return model;
}

function expectedDirected(model: Model, d: number, a: number, b: number): number {
  let e = 0;
  for (const r of model.strataOf[a]!) {
    const total = model.total[d]![r]!;
    if (total > 0) e += (countIn(model.out[d]!, model, a, r) * countIn(model.received[d]!, model, b, r)) / total;
  }
  return e;
}

function expectedCoAction(model: Model, c: number, a: number, b: number): number {
  let e = 0;
  for (const r of model.strataOf[a]!) {
    const K = model.K[c]![r]!;
    if (K > 0) e += (countIn(model.n[c]!, model, a, r) * countIn(model.n[c]!, model, b, r) * model.S2[c]![r]!) / (K * K);
  }
  return e;
}

interface Edge {
  a: number;
  b: number;
  channel: Channel;
  count: number;
  expected: number;
  npmi: number;
  pValue: number;
}

function scoreEdges(acts: Act[], nodeCount: number, model: Model, t: AnalysisParameters) {
  const candidates: Edge[] = [];
  const consider = (channel: Channel, a: number, b: number, count: number, expected: () => number, opportunities: number) => {
    if (count < t.minPairCount) return;
    const e = expected();
    const score = npmi(count, e, opportunities);
    candidates.push({ a, b, channel, count, expected: e, npmi: score, pValue: score >= t.minNpmi ? poissonTail(count, e) : 1 });
  };
  DIRECTED_CHANNELS.forEach((channel, d) => {
    const counts = new Map<number, number>();
    for (const act of acts) if (act.directed === d) bump(counts, act.node * nodeCount + act.target);
    for (const [key, count] of counts) {
      const a = Math.floor(key / nodeCount);
      const b = key % nodeCount;
      consider(channel, a, b, count, () => expectedDirected(model, d, a, b), model.totalAll[d]!);
    }
  });
  CO_CHANNELS.forEach((channel, c) => {
    const counts = new Map<number, number>();
    for (const members of model.participants[c]!.values())
      for (let i = 0; i < members.length; i++)
        for (let j = i + 1; j < members.length; j++) bump(counts, members[i]! * nodeCount + members[j]!);
    for (const [key, count] of counts) {
      const a = Math.floor(key / nodeCount);
      const b = key % nodeCount;
      consider(channel, a, b, count, () => expectedCoAction(model, c, a, b), model.participants[c]!.size);
    }
  });
  const scored = candidates.length;
  const edges = candidates.filter((e) => e.npmi >= t.minNpmi && e.pValue * scored <= t.maxChanceEdges);
  const channels: Channel[] = [...DIRECTED_CHANNELS, ...CO_CHANNELS];
  edges.sort((x, y) => channels.indexOf(x.channel) - channels.indexOf(y.channel) || x.a - y.a || x.b - y.b);
  return { edges, scored };
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;
const CO_ATTESTS = 0;
const nodeOf = (key: string) =>
  key.startsWith('bot:') ? { kind: 'bot' as const, id: key.slice(4) } : { kind: 'actor' as const, id: key.slice(6) };

function isInsideAct(act: Act, m: number, set: Set<number>, model: Model): boolean {
  if (act.target >= 0 && set.has(act.target)) return true;
  if (act.co === CO_ATTESTS) return false;
  const participants = model.participants[act.co]!.get(act.object);
  return Boolean(participants?.some((q) => q !== m && set.has(q)));
}

interface SetSums {
  outsidePopularity: Map<number, number>[];
  n: Map<number, number>[];
}

function memberActivity(acts: Act[], m: number, set: Set<number>, model: Model, sums: SetSums) {
  let inside = 0;
  let expected = 0;
  for (const act of acts) {
    if (isInsideAct(act, m, set, model)) inside++;
    const r = act.stratum;
    let p = 0;
    if (act.directed >= 0) p += sums.outsidePopularity[act.directed]!.get(r) ?? 0;
    const participants = act.co === CO_ATTESTS ? undefined : model.participants[act.co]!.get(act.object);
    if (participants) {
      const outsiders = participants.reduce((k, q) => k + (set.has(q) ? 0 : 1), 0);
      const members = sums.n[act.co]!.get(r) ?? 0;
      const others = members - countIn(model.n[act.co]!, model, m, r);
      const pool = model.K[act.co]![r]! - members + 0.1 * model.objects[act.co]![r]!;
      p += (others * (outsiders + 0.1)) / pool;
    }
    expected += Math.min(1, p);
  }
  return { inside, expected };
}

function setSums(set: Set<number>, model: Model, actsOf: Act[][]): SetSums {
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

function components(set: Set<number>, edges: Edge[]): number[][] {
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

const receivedFrom = (received: Act[], set: Set<number>) => received.reduce((n, act) => n + (set.has(act.node) ? 1 : 0), 0);

/** The reference analysis: the same answer the service's analysis must give for the same rows. */
export function referenceAnalysis(data: Interactions, p: AnalysisParameters) {
  const { keys, acts, strata } = collectActs(data);
  const N = keys.length;
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
    weights.set(x * N + y, (weights.get(x * N + y) ?? 0) + e.npmi * Math.log2(1 + e.count));
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
    for (;;) {
      const sums = setSums(set, model, actsOf);
      const low = [...set].filter((m) => {
        if (actsOf[m]!.length === 0)
          return receivedFrom(receivedOf[m]!, set) < p.minInsideShare * receivedOf[m]!.length || receivedOf[m]!.length === 0;
        return memberActivity(actsOf[m]!, m, set, model, sums).inside < p.minInsideShare * actsOf[m]!.length;
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
    const cluster = describeCluster(set, keys, actsOf, receivedOf, model, edges);
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

function describeCluster(set: Set<number>, keys: string[], actsOf: Act[][], receivedOf: Act[][], model: Model, edges: Edge[]): Cluster {
  const members = [...set].sort((x, y) => x - y);
  const sums = setSums(set, model, actsOf);
  const stories = new Set<string>();
  const proposals = new Set<string>();
  let insideActs = 0;
  let expectedInsideActs = 0;
  const memberEvidence: ClusterMember[] = members.map((m) => {
    const acts = actsOf[m]!;
    const a = memberActivity(acts, m, set, model, sums);
    for (const act of acts) {
      if (!isInsideAct(act, m, set, model)) continue;
      stories.add(act.storyId);
      if (act.proposalId) proposals.add(act.proposalId);
    }
    insideActs += a.inside;
    expectedInsideActs += a.expected;
    const node = nodeOf(keys[m]!);
    return {
      id: node.id,
      kind: node.kind,
      acts: acts.length,
      insideActs: a.inside,
      insideShare: acts.length ? round(a.inside / acts.length) : 0,
      expectedInsideShare: acts.length ? round(a.expected / acts.length) : 0,
      received: receivedOf[m]!.length,
      receivedInside: receivedFrom(receivedOf[m]!, set),
    };
  });
  const inside = edges.filter((e) => set.has(e.a) && set.has(e.b));
  const directedKeys = new Set(inside.filter((e) => !e.channel.startsWith('co')).map((e) => `${e.channel}:${e.a}:${e.b}`));
  const reciprocated = inside.filter((e) => directedKeys.has(`${e.channel}:${e.b}:${e.a}`)).length;
  const acting = memberEvidence.filter((m) => m.acts > 0);
  const meanInsideShare = acting.length ? acting.reduce((s, m) => s + m.insideActs / m.acts, 0) / acting.length : 0;
  const lift = insideActs / Math.max(expectedInsideActs, 1e-3);
  const sortedStories = [...stories].sort();
  const sortedProposals = [...proposals].sort();
  return {
    id: `cartel_${createHash('sha256')
      .update(members.map((m) => keys[m]!).join('\n'))
      .digest('hex')
      .slice(0, 16)}`,
    members: memberEvidence.map((m) => m.id),
    size: members.length,
    score: round(meanInsideShare * Math.log(Math.max(lift, 1))),
    evidence: {
      members: memberEvidence,
      edges: inside.map((e) => ({
        from: nodeOf(keys[e.a]!).id,
        to: nodeOf(keys[e.b]!).id,
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
      storyIds: sortedStories.slice(0, 100),
      storyCount: sortedStories.length,
      proposalIds: sortedProposals.slice(0, 100),
      proposalCount: sortedProposals.length,
    },
  };
}
