import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildAgentCli, type AgentCli } from '../helpers/agent-cli.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { freePort } from '../helpers/service-process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
let compiled: AgentCli;

/** The command compiled from the SDK's source (test/helpers/agent-cli.ts); `npx` runs the repository's own bin. */
function cli(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  via: 'compiled' | 'npx' = 'compiled',
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const [command, argv] = via === 'npx' ? ['npx', ['newsroom-agent', ...args]] : [process.execPath, [compiled.bundle, ...args]];
    const child = spawn(command, argv, { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('newsroom-agent: help, readable errors and exit codes', () => {
  let t: TestApp;
  let dir: string;
  let env: Record<string, string>;
  before(async () => {
    compiled = await buildAgentCli();
    t = await createTestApp();
    env = { NEWSROOM_URL: await t.listen() };
    mkdirSync(join(repo, 'scratch'), { recursive: true });
    dir = mkdtempSync(join(repo, 'scratch', 'cli-'));
  });
  after(async () => {
    await t.close();
    compiled.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  test('--help lists every command and exits 0; no command or an unknown one exits 2', async () => {
    // the repository's own bin, found by npx as docs/bot-developers.md runs it (the TypeScript through tsx)
    const help = await cli(['--help'], dir, {}, 'npx');
    assert.equal(help.code, 0);
    for (const command of ['keygen', 'join', 'verify', 'submit', 'attest', 'object', 'propose', 'vote', 'status'])
      assert.match(help.stdout, new RegExp(`^  ${command}`, 'm'));
    assert.equal((await cli([], dir)).code, 2);
    const unknown = await cli(['publish'], dir);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command: publish/);
    assert.equal((await cli(['join', '--bogus'], dir)).code, 2);
  });

  test('keygen refuses to overwrite a key; a missing key file is a usage error (2)', async () => {
    assert.equal((await cli(['keygen', '--key', 'k.json'], dir)).code, 0);
    const again = await cli(['keygen', '--key', 'k.json'], dir);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /refusing to overwrite/);
    const missing = await cli(['join', '--name', 'x', '--key', 'nope.json'], dir, env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /key file not found/);
  });

  test('a refusal prints the service message, next action and details, and exits 1', async () => {
    assert.equal((await cli(['keygen', '--key', 'lonely.json'], dir)).code, 0);
    // attesting without having joined: 401 AGENT_BOT_UNREGISTERED, whose next action is to join
    const res = await cli(['attest', '--key', 'lonely.json', '--story', 'st_missing', '--hash', 'a'.repeat(64)], dir, env);
    assert.equal(res.code, 1, res.stderr);
    assert.match(res.stderr, /^error: .+has not joined/m);
    assert.match(res.stderr, /^next: POST \/v1\/agents\/join/m);
    assert.match(res.stderr, /\(AGENT_BOT_UNREGISTERED 401\)/);
  });

  test('a local problem exits 2 and says what to fix, never that the service could not be reached', async () => {
    assert.equal((await cli(['keygen', '--key', 'local.json'], dir)).code, 0);
    const noApiKey = await cli(['status', '--key', 'local.json', '--hash', 'a'.repeat(64)], dir, { ...env, NEWSROOM_API_KEY: '' });
    assert.equal(noApiKey.code, 2, noApiKey.stderr);
    assert.match(noApiKey.stderr, /needs the service's public API key: --api-key or NEWSROOM_API_KEY/);
    writeFileSync(join(dir, 'broken-seed.json'), JSON.stringify({ seed: 'not-a-seed' }));
    const badSeed = await cli(['join', '--key', 'broken-seed.json', '--name', 'x'], dir, env);
    assert.equal(badSeed.code, 2, badSeed.stderr);
    assert.match(badSeed.stderr, /the key in broken-seed\.json is not valid/);
    writeFileSync(join(dir, 'broken-wallet.json'), JSON.stringify({ privateKey: '0x1234' }));
    const badWallet = await cli(['verify', '--key', 'local.json', '--wallet-key', 'broken-wallet.json'], dir, env);
    assert.equal(badWallet.code, 2, badWallet.stderr);
    assert.match(badWallet.stderr, /the wallet key in broken-wallet\.json is not valid/);
    const badUrl = await cli(['join', '--key', 'local.json', '--name', 'x', '--url', 'localhost:8080'], dir);
    assert.equal(badUrl.code, 2, badUrl.stderr);
    assert.match(badUrl.stderr, /the service URL must be http\(s\): localhost:8080/);
    for (const res of [noApiKey, badSeed, badWallet, badUrl]) assert.doesNotMatch(res.stderr, /could not be reached/);
  });

  test('an unreachable service exits 3', async () => {
    assert.equal((await cli(['keygen', '--key', 'far.json'], dir)).code, 0);
    const res = await cli(['join', '--key', 'far.json', '--name', 'far'], dir, { NEWSROOM_URL: `http://127.0.0.1:${await freePort()}` });
    assert.equal(res.code, 3);
    assert.match(res.stderr, /could not be reached/);
    assert.match(res.stderr, /ECONNREFUSED/);
  });
});
