import { sql } from 'kysely';
import type { Database, Db } from './database.js';

/**
 * A streaming read replica of the primary database (DATABASE_READ_URL), and the choice, per public read,
 * between it and the primary. Why: docs/adr/0020-read-replica.md.
 *
 * The replica's state is checked at most every CHECK_INTERVAL_MS, on demand (a read asks, the check runs in
 * the background, the read goes by the state known so far): the primary's WAL position is read first, then
 * the replica's replay position. Each check keeps the pair (when the primary's position was read, that
 * position); the replica's lag is the age of the newest such position it has replayed: "the replica has
 * everything the primary had written LAG ms ago". That needs no clock on the servers and no commit timestamps
 * (an idle primary does not make a caught-up replica look late, a replica cut off from the primary does not
 * look current). A replica is used while that lag is at most DATABASE_READ_MAX_LAG_MS; a replica that fails
 * (a check or a read: connection refused, timeout) is down until the next check finds it answering again.
 *
 * Read-your-writes: every write's response carries the primary's WAL position after its commit
 * (`x-read-after`); a read carrying one is served by the replica only once the replica is known to have
 * replayed that position, else by the primary.
 *
 * The position is the client's word: one ahead of the primary would send every read to the primary, for
 * ever. So a position is trusted up to the primary's own (`clampToPrimary`): the newest primary position
 * this instance knows (each check reads one, each write here reads one for its `x-read-after`). A position
 * ahead of that one is either a write's newer than the last check (another instance's, say) or not a
 * position the primary ever had; only a primary position read after the request arrived tells them apart,
 * so such a read waits for the next check, which every read waiting then shares, and counts the client's
 * position as at most the one that check read. An honest position, read from the primary before the request
 * arrived, is never above it and passes unchanged; an invented one becomes the primary's current position,
 * which asks no more of the replica than a write made just now.
 */

/** How often, at most, the replica's position is checked (while reads ask). */
export const CHECK_INTERVAL_MS = 100;
/** A check that has not answered in this long counts as a failure. */
const CHECK_TIMEOUT_MS = 1_000;
/** A state older than this (checks hanging) is not trusted: reads go to the primary. */
const STALE_STATE_MS = 2_000;
/**
 * The least time between the starts of the checks that reads with a position ahead of the primary's wait for:
 * a client sending such positions on every read costs the servers at most two tiny queries this often.
 */
const WAITED_CHECK_SPACING_MS = 10;
/** PostgreSQL's `X/Y` form at its longest (two 32-bit halves in hexadecimal). */
const LSN_TEXT_MAX = 17;

export type ReplicaState = 'unknown' | 'up' | 'lagging' | 'down' | 'not-a-replica';

export interface ReplicaStatus {
  state: ReplicaState;
  /** The replica's replay position as of the last check (PostgreSQL's `X/Y` form). */
  replayLsn?: string;
  /** The age of the newest primary position the replica is known to have replayed; absent: none within the limit. */
  lagMs?: number;
  /** When the state was last set (performance.now() milliseconds). */
  at: number;
  error?: string;
}

/** Where a public read goes; on the replica, what it has replayed at least (replay only moves forward). */
export type ReadTarget = { on: 'primary' } | { on: 'replica'; replayed: bigint };

/** Where reads go and what the replica has replayed: the replica without its handle. */
export interface ReadRouter {
  readonly maxLagMs: number;
  /** Where a public read goes now: `readAfter` is the client's `x-read-after` position (clampToPrimary's), if any. */
  choose(readAfter: bigint | undefined): ReadTarget;
  /**
   * The client's position as far as the primary vouches for it: itself when no newer than a primary position
   * known here, else (waiting for a check that starts after this call) at most the primary's position that check
   * read. Unchanged, without waiting, while the replica is not in use (every read goes to the primary anyway) or
   * when that check could not read the primary's position. Never rejects.
   */
  clampToPrimary(readAfter: bigint): Promise<bigint>;
  /** A position the primary had (a write's `x-read-after`, read after its commit). */
  primaryReached(lsn: bigint): void;
  /** A read on the replica failed (not a domain error): the replica is down until a check finds it again. */
  failed(err: unknown): void;
  /** Runs a check now (readiness) and returns the state it found. */
  check(): Promise<ReplicaStatus>;
  status(): ReplicaStatus;
  close(): Promise<void>;
}

/** The read replica: its handle, typed to the tables `T` (the caller's), and its router. */
export interface ReadReplica<T> extends ReadRouter {
  readonly db: Db<T>;
}

/** PostgreSQL's `X/Y` WAL position as a number (both halves hexadecimal); undefined when malformed. */
export function parseLsn(text: string | undefined | null): bigint | undefined {
  const trimmed = text?.trim();
  if (!trimmed || trimmed.length > LSN_TEXT_MAX) return undefined;
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(trimmed);
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** The primary's WAL position now: after a commit, a position the commit is at or before. */
export async function primaryWalPosition<T>(db: Db<T>): Promise<string> {
  const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(db);
  return rows[0]!.lsn;
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function createReadReplica<T>(options: { primary: Db<T>; replica: Database<T>; maxLagMs: number }): ReadReplica<T> {
  const { primary, replica, maxLagMs } = options;
  // elapsed time, not the app's clock (which tests may stop): lag and check intervals are real durations
  const clock = { now: () => performance.now() };
  let status: ReplicaStatus = { state: 'unknown', at: clock.now() };
  let replayed: bigint | undefined;
  /** (when the primary's position was read, that position), oldest first, none older than maxLagMs. */
  const samples: { at: number; lsn: bigint }[] = [];
  let lastCheckStarted = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<ReplicaStatus> | undefined;
  /** Checks started so far; one runs at a time, so they end in the order they start. */
  let checksStarted = 0;
  /** The newest primary position known here (a check's or a write's), and the number of the last check that read one. */
  let primaryKnown: bigint | undefined;
  let primaryReadBy = 0;
  /** Reads waiting for a check that starts after the number they saw started (clampToPrimary). */
  const waiting: { after: number; release: () => void }[] = [];
  let waitedCheck: NodeJS.Timeout | undefined;
  let closed = false;

  const reached = (lsn: bigint) => {
    if (primaryKnown === undefined || lsn > primaryKnown) primaryKnown = lsn;
  };

  const runCheck = async (): Promise<ReplicaStatus> => {
    const at = clock.now();
    lastCheckStarted = at;
    const number = (checksStarted += 1);
    try {
      const primaryLsn = parseLsn(await withDeadline(primaryWalPosition(primary), CHECK_TIMEOUT_MS, 'the primary'));
      if (primaryLsn === undefined) throw new Error('the primary reported no WAL position');
      reached(primaryLsn);
      primaryReadBy = number;
      // one sample per CHECK_INTERVAL_MS, as the periodic checks alone take: the checks reads wait for may run
      // more often, and finer samples would make each check's scan of them longer without a better lag
      const newest = samples.at(-1);
      if (newest === undefined || at - newest.at >= CHECK_INTERVAL_MS) samples.push({ at, lsn: primaryLsn });
      const { rows } = await withDeadline(
        sql<{
          recovering: boolean;
          lsn: string | null;
        }>`select pg_is_in_recovery() as recovering, pg_last_wal_replay_lsn()::text as lsn`.execute(replica.db),
        CHECK_TIMEOUT_MS,
        'the read replica',
      );
      const now = clock.now();
      while (samples.length > 0 && now - samples[0]!.at > maxLagMs) samples.shift();
      const row = rows[0]!;
      if (!row.recovering) {
        // a promoted replica (or a primary named by mistake) may have diverged: never read from it
        replayed = undefined;
        status = { state: 'not-a-replica', at: now, error: 'DATABASE_READ_URL is not in recovery (not a streaming replica)' };
        return status;
      }
      const replayLsn = parseLsn(row.lsn);
      replayed = replayLsn;
      let caughtUpAt: number | undefined;
      if (replayLsn !== undefined) for (const sample of samples) if (sample.lsn <= replayLsn) caughtUpAt = sample.at;
      const lagMs = caughtUpAt === undefined ? undefined : now - caughtUpAt;
      status = {
        state: lagMs !== undefined && lagMs <= maxLagMs ? 'up' : 'lagging',
        ...(row.lsn ? { replayLsn: row.lsn } : {}),
        ...(lagMs !== undefined ? { lagMs } : {}),
        at: now,
      };
    } catch (err) {
      replayed = undefined;
      status = { state: 'down', at: clock.now(), error: (err as Error).message };
    }
    return status;
  };

  const check = () => {
    inFlight ??= runCheck().finally(() => {
      inFlight = undefined;
      let released = 0;
      while (released < waiting.length && waiting[released]!.after < checksStarted) waiting[released++]!.release();
      waiting.splice(0, released);
      if (waiting.length > 0) scheduleWaitedCheck();
    });
    return inFlight;
  };

  /** Starts a check for the waiting reads, WAITED_CHECK_SPACING_MS after the last one; the one running ends first. */
  const scheduleWaitedCheck = () => {
    if (inFlight || waitedCheck || closed) return; // a check in flight schedules the next when it ends
    waitedCheck = setTimeout(
      () => {
        waitedCheck = undefined;
        void check();
      },
      Math.max(0, lastCheckStarted + WAITED_CHECK_SPACING_MS - clock.now()),
    );
  };

  const inUse = (now: number) => status.state === 'up' && now - status.at <= STALE_STATE_MS;

  return {
    db: replica.db,
    maxLagMs,
    choose(readAfter) {
      const now = clock.now();
      if (now - lastCheckStarted >= CHECK_INTERVAL_MS) void check();
      if (!inUse(now) || replayed === undefined) return { on: 'primary' };
      if (readAfter !== undefined && replayed < readAfter) return { on: 'primary' };
      return { on: 'replica', replayed };
    },
    async clampToPrimary(readAfter) {
      if ((primaryKnown !== undefined && readAfter <= primaryKnown) || !inUse(clock.now()) || closed) return readAfter;
      const after = checksStarted;
      await new Promise<void>((release) => {
        waiting.push({ after, release });
        scheduleWaitedCheck();
      });
      // a check started after this read arrived read the primary: an honest position is at or below what it read
      if (primaryReadBy > after && primaryKnown !== undefined && readAfter > primaryKnown) return primaryKnown;
      return readAfter;
    },
    primaryReached: reached,
    failed(err) {
      replayed = undefined;
      status = { state: 'down', at: clock.now(), error: (err as Error)?.message ?? String(err) };
    },
    check,
    status: () => status,
    close: () => {
      closed = true;
      clearTimeout(waitedCheck);
      for (const read of waiting.splice(0)) read.release();
      return replica.close();
    },
  };
}
