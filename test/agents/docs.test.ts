import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { delimiter, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildAgentCli, type AgentCli } from '../helpers/agent-cli.js';
import { createTestApp, TEST_API_KEY, TEST_OPS_TOKEN, type TestApp } from '../helpers/app.js';
import { startAgentBookChain } from '../helpers/local-evm.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** The guide's runnable parts, in order: `<name>.json:` + a json block is a file, an sh block is commands. */
function guideSteps(markdown: string): ({ kind: 'file'; name: string; content: string } | { kind: 'sh'; script: string })[] {
  const steps: ({ kind: 'file'; name: string; content: string } | { kind: 'sh'; script: string })[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(json|sh)$/.exec(lines[i]!);
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    const body = lines.slice(i + 1, end).join('\n');
    let prev = i - 1;
    while (prev >= 0 && lines[prev]!.trim() === '') prev--;
    const file = /^([\w.-]+\.json):$/.exec(lines[prev] ?? '');
    if (fence[1] === 'sh') steps.push({ kind: 'sh', script: body });
    else if (file) steps.push({ kind: 'file', name: file[1]!, content: body });
    i = end;
  }
  return steps;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

// `npx newsroom-agent` runs the command compiled once from the SDK's source (test/helpers/agent-cli.ts) instead
// of the repository's bin through tsx for each of the guide's commands; test/agents/cli.test.ts runs that bin.
describe('docs/bot-developers.md, every command run in order against the service', () => {
  let cli: AgentCli;
  let chain: Awaited<ReturnType<typeof startAgentBookChain>>;
  let t: TestApp;
  let url: string;
  let dir: string;

  before(async () => {
    cli = await buildAgentCli();
    chain = await startAgentBookChain();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      PUBLIC_BASE_URL: url,
      AGENTBOOK_MODE: 'rpc',
      AGENTBOOK_RPC_URL: chain.rpcUrl,
      AGENTBOOK_CONTRACT: chain.contract,
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    // inside the repository, so that `npx newsroom-agent` finds the repository's own command
    mkdirSync(join(repo, 'scratch'), { recursive: true });
    dir = mkdtempSync(join(repo, 'scratch', 'bot-guide-'));
  });
  after(async () => {
    await t.close();
    await chain.close();
    cli.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the guide runs from key generation to a verified attestation, a revision and an objection', async () => {
    const steps = guideSteps(readFileSync(join(repo, 'docs/bot-developers.md'), 'utf8'));
    assert.ok(steps.filter((s) => s.kind === 'sh').length >= 5, 'the guide has its command blocks');
    const env = {
      NEWSROOM_URL: url,
      NEWSROOM_API_KEY: TEST_API_KEY,
      NEWSROOM_OPERATIONS_TOKEN: TEST_OPS_TOKEN,
      PATH: `${cli.binDir}${delimiter}${process.env.PATH ?? ''}`,
    };
    const variables: string[] = [];
    let registered = false;
    const outputs: string[] = [];
    for (const step of steps) {
      if (step.kind === 'file') {
        writeFileSync(join(dir, step.name), step.content);
        continue;
      }
      for (const m of step.script.matchAll(/^([A-Z_]+)=/gm)) if (!variables.includes(m[1]!)) variables.push(m[1]!);
      const save = variables.length ? `declare -p ${variables.join(' ')} > .state.sh` : '';
      const res = await bash(`set -euo pipefail\n[ -f .state.sh ] && source .state.sh\n${step.script}\n${save}\n`, dir, env);
      assert.equal(res.code, 0, `${step.script}\n--- stdout\n${res.stdout}\n--- stderr\n${res.stderr}`);
      outputs.push(res.stdout);
      // the reader registers the wallet in AgentBook with World App: here the test does it on the local chain
      if (!registered && existsSync(join(dir, 'wallet.json'))) {
        const { address } = JSON.parse(readFileSync(join(dir, 'wallet.json'), 'utf8')) as { address: `0x${string}` };
        await chain.register(address, 0x5eedn);
        registered = true;
      }
    }
    const all = outputs.join('\n');
    assert.match(all, /ALLOW/);
    assert.match(all, /"trustTier": "VERIFIED"/);
    assert.match(all, /"weight": 2/);
    assert.match(all, /"status": "ACCEPTED"/);
    assert.match(all, /"kind": "OBJECTION"/);
    const state = readFileSync(join(dir, '.state.sh'), 'utf8');
    const storyId = /STORY_ID="([^"]+)"/.exec(state)![1]!;
    const story = (await t.app.inject({ method: 'GET', url: `/v1/stories/${storyId}` })).json() as { version: number };
    assert.equal(story.version, 2);
  });
});
