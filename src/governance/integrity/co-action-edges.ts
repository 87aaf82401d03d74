import type { Acts, ActsByNode } from './acts.js';
import { expectedCoAction, expectedDirected, type ChannelModel } from './chance-model.js';
import { CO_CHANNELS, DIRECTED_CHANNELS, type Channel } from './interactions.js';

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

/** NPMI of an observed count against its chance expectation, out of `opportunities` (Bouma 2009). */
export function npmi(count: number, expected: number, opportunities: number): number {
  if (count <= 0) return -1;
  const pmi = Math.log(count / Math.max(expected, Number.MIN_VALUE));
  const pJoint = count / Math.max(opportunities, count);
  if (pJoint >= 1) return pmi > 0 ? 1 : 0;
  return Math.max(-1, Math.min(1, pmi / -Math.log(pJoint)));
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

/**
 * Every pair that acts for each other (directed) or together (co-action) at least `minPairCount` times on a
 * channel, scored by NPMI against the chance model; the ones at or above `minNpmi` whose Poisson tail
 * survives the Bonferroni bound (`maxChanceEdges` / pairs scored) are the graph's edges.
 * Pairs are counted one node at a time into an array of the nodes' counts (the pairs of a window run to tens of
 * millions, of which few reach `minPairCount`). Returned sorted (channel, a, b), so the graph is built in one order.
 */
export function scoreEdges(
  acts: Acts,
  actsOf: ActsByNode,
  nodeCount: number,
  model: ChannelModel,
  t: EdgeThresholds,
): { edges: ScoredEdge[]; scored: number } {
  const candidates: ScoredEdge[] = [];
  const counts = new Int32Array(nodeCount);
  const touched = new Int32Array(nodeCount);
  let touchedCount = 0;
  const count = (b: number) => {
    if (counts[b]!++ === 0) touched[touchedCount++] = b;
  };
  /** Scores the pairs (a, b) counted since the last call (expectations only for those counted often enough) and starts again. */
  const drain = (channel: Channel, a: number, expected: (b: number) => number, opportunities: number) => {
    for (let k = 0; k < touchedCount; k++) {
      const b = touched[k]!;
      const observed = counts[b]!;
      counts[b] = 0;
      if (observed < t.minPairCount) continue;
      const e = expected(b);
      const score = npmi(observed, e, opportunities);
      // the tail is only needed for pairs strong enough to become edges (1 marks the rest)
      candidates.push({
        a,
        b,
        channel,
        count: observed,
        expected: e,
        npmi: score,
        pValue: score >= t.minNpmi ? poissonTail(observed, e) : 1,
      });
    }
    touchedCount = 0;
  };
  DIRECTED_CHANNELS.forEach((channel, d) => {
    for (let a = 0; a < nodeCount; a++) {
      for (let k = actsOf.start[a]!; k < actsOf.start[a + 1]!; k++) {
        const i = actsOf.list[k]!;
        if (acts.directed[i] === d) count(acts.target[i]!);
      }
      drain(channel, a, (b) => expectedDirected(model, d, a, b), model.totalAll[d]!);
    }
  });
  CO_CHANNELS.forEach((channel, c) => {
    const start = model.memberStart[c]!;
    const size = model.memberCount[c]!;
    const members = model.members[c]!;
    // the objects of each node that carry evidence
    const objectsOf = new Int32Array(nodeCount + 1);
    for (let o = 0; o < size.length; o++) for (let j = start[o]!; j < start[o]! + size[o]!; j++) objectsOf[members[j]! + 1]! += 1;
    for (let m = 0; m < nodeCount; m++) objectsOf[m + 1]! += objectsOf[m]!;
    const next = objectsOf.slice(0, nodeCount);
    const objectList = new Int32Array(objectsOf[nodeCount]!);
    for (let o = 0; o < size.length; o++) for (let j = start[o]!; j < start[o]! + size[o]!; j++) objectList[next[members[j]!]!++] = o;
    for (let a = 0; a < nodeCount; a++) {
      for (let k = objectsOf[a]!; k < objectsOf[a + 1]!; k++) {
        const o = objectList[k]!;
        // members are sorted: the pair (a, b) is counted from its lower node
        for (let j = start[o]! + size[o]! - 1; j >= start[o]! && members[j]! > a; j--) count(members[j]!);
      }
      drain(channel, a, (b) => expectedCoAction(model, c, a, b), model.objectsKept[c]!);
    }
  });
  const scored = candidates.length;
  const edges = candidates.filter((e) => e.npmi >= t.minNpmi && e.pValue * scored <= t.maxChanceEdges);
  const channels: Channel[] = [...DIRECTED_CHANNELS, ...CO_CHANNELS];
  edges.sort((x, y) => channels.indexOf(x.channel) - channels.indexOf(y.channel) || x.a - y.a || x.b - y.b);
  return { edges, scored };
}
