/**
 * The V8 flags the service's process runs with: `npm start` passes them, the bench's server processes and the
 * tests' service processes too, and src/server.ts warns when it was started without them.
 *
 * `--min-semi-space-size=16` keeps V8's young generation at 16 MB, the largest size V8 gives it anyway. Without it,
 * V8 shrinks the young generation to 1 MB after a quiet spell (its memory reducer, or a moment of low allocation),
 * and under a load of short requests it does not grow back: the process then runs two to three times as many
 * scavenges, and how much CPU it spends per small response depends on when its quiet moments fell
 * (docs/adr/0023-young-generation-flag.md). It costs up to 32 MB of memory per process.
 *
 * Node accepts the flag on its command line only, not in NODE_OPTIONS.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--min-semi-space-size=16'];

/** The service flags that `execArgv` (the process's own node arguments by default) lacks. */
export function missingNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return SERVICE_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}
