import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const sdk = fileURLToPath(new URL('../../sdk', import.meta.url));

export interface AgentCli {
  /** The compiled command: `node <bundle> <args>` is `newsroom-agent <args>`. */
  bundle: string;
  /** A directory for the front of PATH whose `npx newsroom-agent …` runs the bundle (other npx calls pass through). */
  binDir: string;
  remove(): void;
}

/**
 * The SDK's `newsroom-agent` command compiled from sdk/bin.ts into one file, once per test file.
 *
 * Inside the repository the command's bin (sdk/bin/newsroom-agent.js) runs the TypeScript through tsx, which
 * costs several seconds of CPU per command (tsx, then a few hundred viem modules through its loader); the bundle
 * runs the same source in about a second. test/agents/cli.test.ts still runs the real bin through npx.
 */
export async function buildAgentCli(): Promise<AgentCli> {
  const dir = mkdtempSync(join(tmpdir(), 'newsroom-agent-cli-'));
  const bundle = join(dir, 'newsroom-agent.mjs');
  await build({
    entryPoints: [join(sdk, 'bin.ts')],
    bundle: true,
    outfile: bundle,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    logLevel: 'warning',
    // CommonJS dependencies inside an ES module bundle call require()
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  const npx = (process.env.PATH ?? '')
    .split(delimiter)
    .map((d) => join(d, 'npx'))
    .find((p) => existsSync(p));
  const binDir = join(dir, 'bin');
  mkdirSync(binDir);
  writeFileSync(
    join(binDir, 'npx'),
    `#!/bin/sh\nif [ "$1" = newsroom-agent ]; then shift; exec '${process.execPath}' '${bundle}' "$@"; fi\nexec '${npx ?? 'false'}' "$@"\n`,
  );
  chmodSync(join(binDir, 'npx'), 0o755);
  return { bundle, binDir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
