import { CO_CHANNELS, DIRECTED_CHANNELS, type Act, type Channel } from './interactions.js';

/** The thresholds of the edge scoring (a subset of the analysis parameters). */
export interface EdgeThresholds {
  /** fewest observed acts a pair needs on one channel before it is scored */
  minPairCount: number;
  /** lowest NPMI (observed against chance) a scored pair needs to become an edge */
  minNpmi: number;
  /** objects acted on by more actors than this carry no co-action evidence */
  maxCoActors: number;
  /**
   * how many of the kept edges may be chance, in expectation: a pair's Poisson tail P(X ≥ count | expected)
   * must be at most this / the number of pairs scored (a Bonferroni bound over every pair looked at)
   */
  maxChanceEdges: number;
}

/** A pair of nodes on one channel, its observed count against what chance predicts. */
export interface ScoredEdge {
  /** the actor (directed channels) or the lower node index (co-action) */
  a: number;
  /** the target (directed) or the higher node index (co-action) */
  b: number;
  channel: Channel;
  count: number;
  expected: number;
  npmi: number;
  /** P(X ≥ count) for X ~ Poisson(expected): how likely chance alone gives this many */
  pValue: number;
}

/**
 * The chance model of every channel, stratified by room (bots and readers have beats: chance is what happens
 * *within* a room), kept to explain a cluster afterwards. Per-node counts are keyed `node * strata + room`.
 * Directed channels: the acts each node gave (`out`) and received (`received`) per room, and each room's
 * total. Co-action channels: the participants of each object that carries evidence (an object is in one
 * room), the objects each node took part in per room (`n`), and per room K = Σ k_s, S2 = Σ k_s² and the
 * number of objects.
 */
export interface ChannelModel {
  strata: number;
  out: Map<number, number>[];
  received: Map<number, number>[];
  total: Float64Array[];
  /** acts of each directed channel, all rooms */
  totalAll: number[];
  participants: Map<string, number[]>[];
  objectStratum: Map<string, number>[];
  n: Map<number, number>[];
  K: Float64Array[];
  S2: Float64Array[];
  objects: Float64Array[];
  /** the rooms each node acted in or received acts in */
  strataOf: Set<number>[];
}

const bump = (map: Map<number, number>, key: number, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
/** A node's count in a room. */
export const countIn = (map: Map<number, number>, model: ChannelModel, node: number, stratum: number) =>
  map.get(node * model.strata + stratum) ?? 0;

/** NPMI of an observed count against its chance expectation, out of `opportunities` (Bouma 2009). */
export function npmi(count: number, expected: number, opportunities: number): number {
  if (count <= 0) return -1;
  const pmi = Math.log(count / Math.max(expected, Number.MIN_VALUE));
  const pJoint = count / Math.max(opportunities, count);
  if (pJoint >= 1) return pmi > 0 ? 1 : 0;
  return Math.max(-1, Math.min(1, pmi / -Math.log(pJoint)));
}

/** Node pairs at most this many (nodes²) are counted in a dense array (4 bytes each); more in a Map. */
const DENSE_PAIR_LIMIT = 1 << 23;

/**
 * Counts per node pair (key a · nodes + b): a dense typed array for the usual sizes (a Map of millions of
 * entries spends its time hashing and collecting garbage), a Map beyond DENSE_PAIR_LIMIT.
 */
class PairCounts {
  private readonly dense: Uint32Array | null;
  private readonly sparse = new Map<number, number>();
  private touched: number[] = [];

  constructor(nodeCount: number) {
    this.dense = nodeCount * nodeCount <= DENSE_PAIR_LIMIT ? new Uint32Array(nodeCount * nodeCount) : null;
  }

  add(key: number): void {
    if (this.dense) {
      if (this.dense[key] === 0) this.touched.push(key);
      this.dense[key]! += 1;
    } else this.sparse.set(key, (this.sparse.get(key) ?? 0) + 1);
  }

  /** Hands every counted pair to `fn` and starts again from zero. */
  drain(fn: (key: number, count: number) => void): void {
    if (this.dense) {
      for (const key of this.touched) {
        fn(key, this.dense[key]!);
        this.dense[key] = 0;
      }
      this.touched = [];
    } else {
      for (const [key, count] of this.sparse) fn(key, count);
      this.sparse.clear();
    }
  }
}

/** P(X ≥ k) for X ~ Poisson(λ), summed in log space from k upwards (the terms fall fast once past λ). */
export function poissonTail(k: number, lambda: number): number {
  if (k <= 0) return 1;
  if (lambda <= 0) return 0;
  let logTerm = -lambda;
  for (let i = 1; i <= k; i++) logTerm += Math.log(lambda) - Math.log(i);
  let sum = 0;
  for (let i = k; i < k + 1000; i++) {
    const term = Math.exp(logTerm);
    sum += term;
    if (i > lambda && term < sum * 1e-12) break;
    logTerm += Math.log(lambda) - Math.log(i + 1);
  }
  return Math.min(1, sum);
}

/** Builds the chance model of each channel from the acts. */
export function channelModel(acts: Act[], nodeCount: number, strata: number, maxCoActors: number): ChannelModel {
  const D = DIRECTED_CHANNELS.length;
  const C = CO_CHANNELS.length;
  const model: ChannelModel = {
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
      // a crowd on one object is what chance and popularity look like: it carries no co-action evidence
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

/** Chance expectation of a directed pair: the configuration model within each room, Σ_r out_r(a) · received_r(b) / total_r. */
export function expectedDirected(model: ChannelModel, d: number, a: number, b: number): number {
  let e = 0;
  for (const r of model.strataOf[a]!) {
    const total = model.total[d]![r]!;
    if (total > 0) e += (countIn(model.out[d]!, model, a, r) * countIn(model.received[d]!, model, b, r)) / total;
  }
  return e;
}

/**
 * Chance expectation of co-actions of a pair: within a room, each act lands on object s with probability
 * k_s / K (popular objects attract everyone), so E = Σ_r n_r(a) · n_r(b) · S2_r / K_r².
 */
export function expectedCoAction(model: ChannelModel, c: number, a: number, b: number): number {
  let e = 0;
  for (const r of model.strataOf[a]!) {
    const K = model.K[c]![r]!;
    if (K > 0) e += (countIn(model.n[c]!, model, a, r) * countIn(model.n[c]!, model, b, r) * model.S2[c]![r]!) / (K * K);
  }
  return e;
}

/**
 * Every pair that acts for each other (directed) or together (co-action) at least `minPairCount` times on a
 * channel, scored by NPMI against the chance model; the ones at or above `minNpmi` whose Poisson tail
 * survives the Bonferroni bound (`maxChanceEdges` / pairs scored) are the graph's edges.
 * Returned sorted (channel, a, b), so the graph is built in one order.
 */
export function scoreEdges(
  acts: Act[],
  nodeCount: number,
  model: ChannelModel,
  t: EdgeThresholds,
): { edges: ScoredEdge[]; scored: number } {
  const candidates: ScoredEdge[] = [];
  const consider = (channel: Channel, a: number, b: number, count: number, expected: number, opportunities: number) => {
    if (count < t.minPairCount) return;
    const score = npmi(count, expected, opportunities);
    // the tail is only needed for pairs strong enough to become edges (1 marks the rest)
    candidates.push({ a, b, channel, count, expected, npmi: score, pValue: score >= t.minNpmi ? poissonTail(count, expected) : 1 });
  };
  const counts = new PairCounts(nodeCount);
  DIRECTED_CHANNELS.forEach((channel, d) => {
    for (const act of acts) if (act.directed === d) counts.add(act.node * nodeCount + act.target);
    counts.drain((key, count) => {
      const a = Math.floor(key / nodeCount);
      const b = key % nodeCount;
      consider(channel, a, b, count, expectedDirected(model, d, a, b), model.totalAll[d]!);
    });
  });
  CO_CHANNELS.forEach((channel, c) => {
    for (const members of model.participants[c]!.values()) {
      for (let i = 0; i < members.length; i++) {
        const row = members[i]! * nodeCount;
        for (let j = i + 1; j < members.length; j++) counts.add(row + members[j]!);
      }
    }
    const objects = model.participants[c]!.size;
    counts.drain((key, count) => {
      const a = Math.floor(key / nodeCount);
      const b = key % nodeCount;
      consider(channel, a, b, count, expectedCoAction(model, c, a, b), objects);
    });
  });
  const scored = candidates.length;
  const edges = candidates.filter((e) => e.npmi >= t.minNpmi && e.pValue * scored <= t.maxChanceEdges);
  const channels: Channel[] = [...DIRECTED_CHANNELS, ...CO_CHANNELS];
  edges.sort((x, y) => channels.indexOf(x.channel) - channels.indexOf(y.channel) || x.a - y.a || x.b - y.b);
  return { edges, scored };
}
