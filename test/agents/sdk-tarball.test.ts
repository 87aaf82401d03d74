import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve, sep } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { agentKeySeed, generateAgentKey } from '../../sdk/index.js';
import { createTestApp, TEST_API_KEY, TEST_OPS_TOKEN, type TestApp } from '../helpers/app.js';
import { fuzzTierOnly } from '../helpers/fuzz.js';
import { freePort, startService, type ServiceProcess } from '../helpers/service-process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const sdkPackage = JSON.parse(readFileSync(join(repo, 'sdk', 'package.json'), 'utf8')) as { name: string; version: string };
const tarballName = `newsroom-agent-sdk-${sdkPackage.version}.tgz`;
// spelled in parts: the test build rewrites anything that reads like a relative import in the compiled code
const LOCAL_SDK = ['..', 'sdk', 'index.js'].join('/');

/** npm's error codes for a registry it cannot reach, or a package the cache lacks when it may not ask one. */
const UNREACHABLE = /npm error code (ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)\b/;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => done({ code: -1, stdout, stderr: `${stderr}${String(err)}` }));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * A shell outside the repository: no PATH entry inside the repository (its node_modules/.bin has a newsroom-agent
 * of its own, which runs the repository's source) but the directory of the Node.js running the tests, so the
 * commands run on it, and none of the variables describing the repository's package that `npm run` set (npm's
 * own settings, npm_config_*, are kept: a registry mirror, the cache).
 */
function outside(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_(package|lifecycle)_/i.test(name)));
  const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir && !`${resolve(dir)}${sep}`.startsWith(repo));
  return { ...env, PATH: [dirname(process.execPath), ...path].join(delimiter), ...extra };
}

/** Why an npm command could not be run here (npm missing, no registry and not in the cache), or undefined. */
function unavailable(res: Run): string | undefined {
  if (res.code === -1 && /ENOENT/.test(res.stderr)) return 'npm is not on PATH';
  const code = UNREACHABLE.exec(res.stderr)?.[1];
  return code ? `the npm registry is unreachable and the npm cache lacks a package (${code})` : undefined;
}

const npmOutput = (res: Run) => `exit ${res.code}\n--- stdout\n${res.stdout}\n--- stderr\n${res.stderr}`;

/** The sdk/README.md quick start: its JavaScript block. */
function quickStart(): string {
  const block = /^```js\n([\s\S]*?)\n```$/m.exec(readFileSync(join(repo, 'sdk', 'README.md'), 'utf8'));
  assert.ok(block, 'sdk/README.md has its quick start');
  return block[1]!;
}

// npm ci of the SDK's packages, its tsc build, then npm install of the tarball: one to three minutes
const slow = fuzzTierOnly('packs the SDK, installs its tarball with npm and runs it');

describe('the SDK tarball, installed on its own into an empty project, against the service', () => {
  let work = '';
  let project = '';
  /** Why the later tests cannot run when the first did not install the tarball. */
  let notInstalled: string | undefined = 'the first test did not install the tarball';
  let t: TestApp | undefined;
  let url = '';
  const walletKey = generatePrivateKey();
  let candidate: { storyId: string; hash: string } | undefined;

  after(async () => {
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test(
    'npm run sdk:pack builds the tarball from sdk/ alone; it installs into an empty project with only what it declares',
    { skip: slow },
    async (ctx) => {
      work = mkdtempSync(join(tmpdir(), 'newsroom-sdk-tarball-'));
      project = join(work, 'my-bot');
      // the release's command, with the machine's npm cache first (the registry is asked only for what it lacks)
      const packed = await run(
        'npm',
        ['run', '--silent', 'sdk:pack', '--', join(work, 'release')],
        repo,
        outside({ npm_config_prefer_offline: 'true' }),
      );
      const skip = unavailable(packed);
      if (skip) return void ctx.skip(skip);
      assert.equal(packed.code, 0, npmOutput(packed));
      const tarball = packed.stdout.trim().split('\n').at(-1)!;
      assert.equal(tarball, join(work, 'release', tarballName));

      const listed = await run('tar', ['-tzf', tarball], work, outside());
      assert.equal(listed.code, 0, listed.stderr);
      const files = listed.stdout.trim().split('\n').sort();
      for (const file of [
        'package.json',
        'README.md',
        'CHANGELOG.md',
        'bin/newsroom-agent.js',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/bin.js',
      ])
        assert.ok(files.includes(`package/${file}`), `the tarball has ${file}: ${files.join(', ')}`);
      // compiled code and declarations only: no TypeScript source, so its bin runs dist/
      assert.deepEqual(
        files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
        [],
      );

      mkdirSync(project);
      writeFileSync(
        join(project, 'package.json'),
        `${JSON.stringify({ name: 'my-bot', version: '1.0.0', private: true, type: 'module' })}\n`,
      );
      copyFileSync(tarball, join(project, tarballName));
      const installed = await run(
        'npm',
        ['install', `./${tarballName}`, '--prefer-offline', '--no-audit', '--no-fund'],
        project,
        outside(),
      );
      const skipInstall = unavailable(installed);
      if (skipInstall) return void ctx.skip(skipInstall);
      assert.equal(installed.code, 0, npmOutput(installed));

      // the project declares the SDK alone, installed as a copy of the tarball (not a link into the repository)
      const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
      assert.deepEqual(manifest.dependencies, { [sdkPackage.name]: `file:${tarballName}` });
      const sdkDir = join(project, 'node_modules', ...sdkPackage.name.split('/'));
      assert.ok(lstatSync(sdkDir).isDirectory() && !lstatSync(sdkDir).isSymbolicLink());
      assert.equal((JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')) as { version: string }).version, sdkPackage.version);
      assert.ok(!existsSync(join(sdkDir, 'index.ts')), 'no TypeScript source in the installed package');
      notInstalled = undefined;
    },
  );

  test(
    'the installed newsroom-agent and the README quick start: help, a key, a joined bot and its candidate',
    { skip: slow },
    async (ctx) => {
      if (notInstalled) return void ctx.skip(notInstalled);
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      t = await createTestApp({
        PUBLIC_BASE_URL: url,
        AGENTBOOK_STATIC: JSON.stringify({ [privateKeyToAccount(walletKey).address]: 'human-of-the-tarball-bot' }),
      });
      await t.app.listen({ port, host: '127.0.0.1' });

      const help = await run('npx', ['newsroom-agent', '--help'], project, outside());
      assert.equal(help.code, 0, npmOutput(help));
      for (const command of ['keygen', 'join', 'verify', 'submit', 'attest', 'object', 'propose', 'vote', 'status'])
        assert.match(help.stdout, new RegExp(`^  ${command}`, 'm'));

      const keygen = await run('npx', ['newsroom-agent', 'keygen'], project, outside());
      assert.equal(keygen.code, 0, npmOutput(keygen));
      const { botId } = JSON.parse(keygen.stdout) as { botId: string };

      writeFileSync(join(project, 'bot.mjs'), quickStart());
      const bot = await run(process.execPath, ['bot.mjs'], project, outside({ NEWSROOM_URL: url }));
      assert.equal(bot.code, 0, npmOutput(bot));
      assert.match(bot.stdout, new RegExp(`^joined ${botId} UNVERIFIED$`, 'm'));
      const [, storyId, hash] = /^candidate (st_\S+) ([0-9a-f]{64})$/m.exec(bot.stdout) ?? [];
      assert.ok(storyId && hash, bot.stdout);
      candidate = { storyId, hash };

      // the service has the bot's candidate
      const status = await t.app.inject({ method: 'GET', url: `/v1/candidates/${hash}/status`, headers: { 'x-api-key': TEST_API_KEY } });
      assert.equal(status.statusCode, 200, status.body);
      assert.equal((status.json() as { botId: string }).botId, botId);
      const published = await t.app.inject({
        method: 'POST',
        url: `/v1/publish/${hash}/compute`,
        headers: { 'x-operations-token': TEST_OPS_TOKEN },
      });
      assert.equal((published.json() as { decision: string }).decision, 'ALLOW', published.body);

      const story = await run('npx', ['newsroom-agent', 'status', '--story', storyId], project, outside({ NEWSROOM_URL: url }));
      assert.equal(story.code, 0, npmOutput(story));
      assert.deepEqual((({ id, packetHash }) => ({ id, packetHash }))(JSON.parse(story.stdout) as { id: string; packetHash: string }), {
        id: storyId,
        packetHash: hash,
      });
    },
  );

  test(
    'examples/bot-sdk.ts runs from the installed package: a verified attestation, a refusal and a proposal',
    { skip: slow },
    async (ctx) => {
      if (notInstalled || !candidate || !t) return void ctx.skip(notInstalled ?? 'the previous test made no story');
      // the example as a bot project has it: everything from the SDK, nothing else
      const example = readFileSync(join(repo, 'examples', 'bot-sdk.ts'), 'utf8').replace(
        `from '${LOCAL_SDK}'`,
        `from '${sdkPackage.name}'`,
      );
      assert.deepEqual(
        [...example.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]),
        [sdkPackage.name],
      );
      writeFileSync(join(project, 'bot-sdk.ts'), example);

      const key = generateAgentKey();
      const env = outside({ NEWSROOM_URL: url, BOT_SEED: agentKeySeed(key), BOT_WALLET_KEY: walletKey, STORY_ID: candidate.storyId });
      // Node.js 24 runs the TypeScript as it is (its types stripped)
      const res = await run(process.execPath, ['bot-sdk.ts'], project, env);
      assert.equal(res.code, 0, npmOutput(res));
      const lines = res.stdout.trim().split('\n');
      assert.equal(
        lines.find((l) => l.startsWith('verified ')),
        `verified ${key.botId} VERIFIED`,
      );
      assert.equal(
        lines.find((l) => l.startsWith('attested ')),
        'attested 2',
      );
      assert.equal(lines.filter((l) => l.startsWith('refused 409 REVIEW_ALREADY_RECORDED ')).length, 2, res.stdout);
      assert.match(res.stdout, /^proposed \S+ OPEN$/m);

      const room = (await t.app.inject({ method: 'GET', url: `/v1/stories/${candidate.storyId}/machine-room` })).json() as {
        attestations: { botId: string; verified: boolean; weight: number }[];
        revisionProposals: { status: string }[];
      };
      assert.deepEqual(
        room.attestations.map((a) => [a.botId, a.verified, a.weight]),
        [[key.botId, true, 2]],
      );
      assert.deepEqual(
        room.revisionProposals.map((p) => p.status),
        ['OPEN'],
      );
    },
  );
  test(
    "against npm start's local demo, from the tarball alone: a bot verified through the local AgentBook, its story attested, and a reader's comment retried safely",
    { skip: slow },
    async (ctx) => {
      if (notInstalled) return void ctx.skip(notInstalled);
      // the service as `npm start` runs it, nothing configured: the local demo in its own data directory
      const dataDir = join(work, 'service-data');
      let service: ServiceProcess | undefined;
      try {
        service = await startService({ DATA_DIR: dataDir, SEED_DEMO: '0', LOG_LEVEL: 'info' }, { startTimeoutMs: 180_000 });
        const env = outside({ NEWSROOM_URL: service.url });
        const cli = async (...args: string[]) => {
          const res = await run('npx', ['newsroom-agent', ...args], project, env);
          assert.equal(res.code, 0, `newsroom-agent ${args.join(' ')}: ${npmOutput(res)}`);
          return JSON.parse(res.stdout) as Record<string, unknown>;
        };
        // the start log says where the secrets are; the developer reads them from there
        const secretsFile = join(dataDir, 'local-secrets.json');
        assert.ok(service.output().includes(secretsFile), service.output());
        const secrets = JSON.parse(readFileSync(secretsFile, 'utf8')) as { humanSigningSecret: string; operationsToken: string };

        const author = await cli('keygen', '--key', 'local-author.json');
        const wallet = await cli('keygen', '--wallet', '--wallet-key', 'local-wallet.json');
        await cli('join', '--key', 'local-author.json', '--name', 'Local harbour desk');
        // World App's step, locally: the wallet goes into the service's local AgentBook
        const registered = await run(
          'npm',
          ['run', '--silent', 'agentbook:register', '--', String(wallet.address)],
          repo,
          outside({ DATA_DIR: dataDir }),
        );
        assert.equal(registered.code, 0, npmOutput(registered));
        const verified = await cli('verify', '--key', 'local-author.json', '--wallet-key', 'local-wallet.json');
        assert.deepEqual([verified.botId, verified.verified, verified.trustTier], [author.botId, true, 'VERIFIED']);

        writeFileSync(
          join(project, 'local-packet.json'),
          JSON.stringify({
            room: 'world',
            lang: 'en',
            title: 'Harbour authority adds two evening ferry crossings',
            summary: 'The port authority voted to add two evening crossings from next month.',
            body: 'The harbour authority approved an expanded ferry timetable on Tuesday after a public consultation.',
            claims: [{ text: 'The authority approved two extra evening crossings.' }],
            sources: [{ url: 'https://example.org/local-ferry-minutes', title: 'Authority minutes', publisher: 'Harbour Authority' }],
          }),
        );
        const submitted = await cli(
          'submit',
          '--key',
          'local-author.json',
          '--wallet-key',
          'local-wallet.json',
          '--packet',
          'local-packet.json',
        );
        assert.equal(submitted.verified, true, 'a verified write');
        const storyId = String(submitted.storyId);
        // the publish step, with the operations token the data directory keeps
        const published = await fetch(`${service.url}/v1/publish/${String(submitted.hash)}/compute`, {
          method: 'POST',
          headers: { 'x-operations-token': secrets.operationsToken },
        });
        assert.equal(published.status, 200);
        assert.equal(((await published.json()) as { decision: string }).decision, 'ALLOW');

        const checker = await cli('keygen', '--key', 'local-checker.json');
        await cli('join', '--key', 'local-checker.json', '--name', 'Local fact-checker');
        await cli('attest', '--key', 'local-checker.json', '--story', storyId, '--note', 'Matches the minutes');
        const room = (await (await fetch(`${service.url}/v1/stories/${storyId}/machine-room`)).json()) as {
          attestations: { botId: string }[];
        };
        assert.deepEqual(
          room.attestations.map((a) => a.botId),
          [checker.botId],
        );

        // a reader's comment through the installed SDK, whose first answer is lost: the retry, signed anew with the
        // same idempotency key, gets the first answer, and the story has one comment
        writeFileSync(
          join(project, 'comment.mjs'),
          [
            `import { createApiClient, humanSigning } from '${sdkPackage.name}';`,
            'const api = createApiClient({ baseUrl: process.env.NEWSROOM_URL });',
            'api.use(humanSigning({ secret: process.env.SIGNING_SECRET }));',
            "const key = 'comment-retry-0001';",
            "const send = () => api.POST('/v1/stories/{id}/comments', { params: { path: { id: process.env.STORY_ID }, header: { 'idempotency-key': key } }, body: { actorId: 'local-reader', verified: false, body: 'Good to see the evening crossings.' } });",
            'const first = await send();',
            'const retried = await send();',
            "console.log(JSON.stringify({ first: first.data?.id, retried: retried.data?.id, status: retried.response.status, replayed: retried.response.headers.get('idempotent-replayed') }));",
          ].join('\n'),
        );
        const commented = await run(process.execPath, ['comment.mjs'], project, {
          ...env,
          SIGNING_SECRET: secrets.humanSigningSecret,
          STORY_ID: storyId,
        });
        assert.equal(commented.code, 0, npmOutput(commented));
        const outcome = JSON.parse(commented.stdout) as { first: string; retried: string; status: number; replayed: string };
        assert.ok(outcome.first, commented.stdout);
        assert.deepEqual(outcome, { first: outcome.first, retried: outcome.first, status: 202, replayed: 'true' });
        const comments = (await (await fetch(`${service.url}/v1/stories/${storyId}/comments`)).json()) as { items: { id: string }[] };
        assert.deepEqual(
          comments.items.map((c) => c.id),
          [outcome.first],
        );
      } finally {
        await service?.stop();
      }
    },
  );
});
