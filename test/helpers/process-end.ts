/**
 * What a test process closes once, after its last test (the root after() of test/helpers/app.ts): things a helper
 * starts lazily and shares between the files of a process, such as the browser of the page tests.
 */
const closers: (() => Promise<void>)[] = [];

export function atProcessEnd(close: () => Promise<void>): void {
  closers.push(close);
}

export async function closeAtProcessEnd(): Promise<void> {
  for (const close of closers.splice(0)) await close().catch(() => undefined);
}
