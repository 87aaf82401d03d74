import type { AppContext } from '../platform/context.js';

/** Seeds the demo newsroom into an empty database. Filled in by the newsroom core. */
export async function seedDemoIfEmpty(_ctx: AppContext): Promise<{ stories: number } | null> {
  return null;
}
