import type { Acts } from './acts.js';
import { CO_CHANNELS, DIRECTED_CHANNELS } from './interactions.js';

/**
 * The chance model of every channel, stratified by room (bots and readers have beats: chance is what happens
 * *within* a room), kept to explain a cluster afterwards.
 *
 * Per-node counts are kept per *slot*: node m's rooms (those it acted in or received acts in, in room order, so
 * that a pair's expectation is summed in one order whatever order the rows came in) are
 * `strataList[strataStart[m] … strataStart[m + 1])`, and slot j of that range holds m's count in that room.
 * Directed channels: the acts each node gave (`out`) and received (`received`) per slot, and each room's
 * total. Co-action channels: the participants of each object that carries evidence (an object is in one
 * room), the objects each node took part in per slot (`n`), and per room K = Σ k_s, S2 = Σ k_s² and the number
 * of objects.
 */
export interface ChannelModel {
  strata: number;
  strataStart: Int32Array;
  strataList: Int32Array;
  out: Int32Array[];
  received: Int32Array[];
  total: Float64Array[];
  /** acts of each directed channel, all rooms */
  totalAll: number[];
  /**
   * per co-action channel, the participants of object o: `members[c][memberStart[c][o] …)`, `memberCount[c][o]`
   * of them, sorted and distinct; 0 when the object carries no evidence (nobody acted on it, or a crowd did)
   */
  memberStart: Int32Array[];
  memberCount: Int32Array[];
  members: Int32Array[];
  /** per co-action channel, the objects that carry evidence */
  objectsKept: number[];
  n: Int32Array[];
  K: Float64Array[];
  S2: Float64Array[];
  objects: Float64Array[];
}

/** The slot of node m in room r, or -1 when m has nothing there. */
export function slotOf(model: ChannelModel, m: number, r: number): number {
  for (let j = model.strataStart[m]!, end = model.strataStart[m + 1]!; j < end; j++) if (model.strataList[j] === r) return j;
  return -1;
}

/** A node's count in a room. */
export function countIn(counts: Int32Array, model: ChannelModel, m: number, r: number): number {
  const j = slotOf(model, m, r);
  return j < 0 ? 0 : counts[j]!;
}

/** Each node's rooms, in room order (an act counts for the actor, and for the target of a directed act). */
function roomsOfNodes(acts: Acts, nodeCount: number): { strataStart: Int32Array; strataList: Int32Array } {
  const rooms: number[][] = Array.from({ length: nodeCount }, () => []);
  const add = (m: number, r: number) => {
    const list = rooms[m]!;
    if (!list.includes(r)) list.push(r);
  };
  for (let i = 0; i < acts.length; i++) {
    add(acts.node[i]!, acts.stratum[i]!);
    if (acts.directed[i]! >= 0) add(acts.target[i]!, acts.stratum[i]!);
  }
  for (const list of rooms) list.sort((x, y) => x - y);
  const strataStart = new Int32Array(nodeCount + 1);
  for (let m = 0; m < nodeCount; m++) strataStart[m + 1] = strataStart[m]! + rooms[m]!.length;
  const strataList = new Int32Array(strataStart[nodeCount]!);
  for (let m = 0; m < nodeCount; m++) strataList.set(rooms[m]!, strataStart[m]!);
  return { strataStart, strataList };
}

/** Sorts `a[from … to)` ascending in place and moves its distinct values to the front; returns how many. */
function sortDistinct(a: Int32Array, from: number, to: number): number {
  if (to - from > 16) a.subarray(from, to).sort();
  else
    for (let i = from + 1; i < to; i++) {
      const x = a[i]!;
      let j = i - 1;
      while (j >= from && a[j]! > x) a[j + 1] = a[j--]!;
      a[j + 1] = x;
    }
  let k = from;
  for (let i = from; i < to; i++) if (i === from || a[i] !== a[k - 1]) a[k++] = a[i]!;
  return k - from;
}

/** Builds the chance model of each channel from the acts. */
export function channelModel(acts: Acts, nodeCount: number, strata: number, objectCounts: number[], maxCoActors: number): ChannelModel {
  const D = DIRECTED_CHANNELS.length;
  const C = CO_CHANNELS.length;
  const { strataStart, strataList } = roomsOfNodes(acts, nodeCount);
  const slots = strataList.length;
  const model: ChannelModel = {
    strata,
    strataStart,
    strataList,
    out: Array.from({ length: D }, () => new Int32Array(slots)),
    received: Array.from({ length: D }, () => new Int32Array(slots)),
    total: Array.from({ length: D }, () => new Float64Array(strata)),
    totalAll: new Array<number>(D).fill(0),
    memberStart: objectCounts.map((count) => new Int32Array(count + 1)),
    memberCount: objectCounts.map((count) => new Int32Array(count)),
    members: [],
    objectsKept: new Array<number>(C).fill(0),
    n: Array.from({ length: C }, () => new Int32Array(slots)),
    K: Array.from({ length: C }, () => new Float64Array(strata)),
    S2: Array.from({ length: C }, () => new Float64Array(strata)),
    objects: Array.from({ length: C }, () => new Float64Array(strata)),
  };
  // the room of each object is the room of the first act on it
  const objectStratum = objectCounts.map((count) => new Int32Array(count).fill(-1));
  for (let i = 0; i < acts.length; i++) {
    const d = acts.directed[i]!;
    const r = acts.stratum[i]!;
    if (d >= 0) {
      model.out[d]![slotOf(model, acts.node[i]!, r)]! += 1;
      model.received[d]![slotOf(model, acts.target[i]!, r)]! += 1;
      model.total[d]![r]! += 1;
      model.totalAll[d]! += 1;
    }
    const c = acts.co[i]!;
    const o = acts.object[i]!;
    model.memberStart[c]![o + 1]! += 1;
    if (objectStratum[c]![o] === -1) objectStratum[c]![o] = r;
  }
  for (let c = 0; c < C; c++) {
    const start = model.memberStart[c]!;
    for (let o = 0; o < objectCounts[c]!; o++) start[o + 1]! += start[o]!;
    model.members.push(new Int32Array(start[objectCounts[c]!]!));
  }
  const next = model.memberStart.map((start) => start.slice(0, -1));
  for (let i = 0; i < acts.length; i++) model.members[acts.co[i]!]![next[acts.co[i]!]![acts.object[i]!]!++] = acts.node[i]!;
  for (let c = 0; c < C; c++) {
    const start = model.memberStart[c]!;
    const members = model.members[c]!;
    const count = model.memberCount[c]!;
    for (let o = 0; o < objectCounts[c]!; o++) {
      if (start[o] === start[o + 1]) continue;
      const k = sortDistinct(members, start[o]!, start[o + 1]!);
      // a crowd on one object is what chance and popularity look like: it carries no co-action evidence
      if (k > maxCoActors) continue;
      count[o] = k;
      const r = objectStratum[c]![o]!;
      for (let j = start[o]!; j < start[o]! + k; j++) model.n[c]![slotOf(model, members[j]!, r)]! += 1;
      model.K[c]![r]! += k;
      model.S2[c]![r]! += k * k;
      model.objects[c]![r]! += 1;
      model.objectsKept[c]! += 1;
    }
  }
  return model;
}

/** Chance expectation of a directed pair: the configuration model within each room, Σ_r out_r(a) · received_r(b) / total_r. */
export function expectedDirected(model: ChannelModel, d: number, a: number, b: number): number {
  let e = 0;
  for (let j = model.strataStart[a]!, end = model.strataStart[a + 1]!; j < end; j++) {
    const r = model.strataList[j]!;
    const total = model.total[d]![r]!;
    if (total > 0) e += (model.out[d]![j]! * countIn(model.received[d]!, model, b, r)) / total;
  }
  return e;
}

/**
 * Chance expectation of co-actions of a pair: within a room, each act lands on object s with probability
 * k_s / K (popular objects attract everyone), so E = Σ_r n_r(a) · n_r(b) · S2_r / K_r².
 */
export function expectedCoAction(model: ChannelModel, c: number, a: number, b: number): number {
  let e = 0;
  for (let j = model.strataStart[a]!, end = model.strataStart[a + 1]!; j < end; j++) {
    const r = model.strataList[j]!;
    const K = model.K[c]![r]!;
    if (K > 0) e += (model.n[c]![j]! * countIn(model.n[c]!, model, b, r) * model.S2[c]![r]!) / (K * K);
  }
  return e;
}
