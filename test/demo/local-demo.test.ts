import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAgentClient, createServiceClient, generateAgentKey, generatePrivateKey, privateKeyToAccount } from '../../sdk/index.js';
import { ConfigError, loadConfig, localDemoDataDir } from '../../src/config.js';
import { DEMO_ADMINS, LOCAL_SECRETS_FILE, prepareLocalDemo } from '../../src/local-demo.js';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { readLocalAgentBook } from '../../src/platform/auth/agentbook.js';
import { linkedHumanIdOf } from '../agents/support.js';
import { runEntry } from '../helpers/ts-entry.js';
import { startService, type ServiceProcess } from '../helpers/service-process.js';

/**
 * The local demo (`npm start` with nothing configured): one signing secret and one operations token per data
 * directory, kept across restarts in DATA_DIR/local-secrets.json and named (never shown) in the start log; a local
 * AgentBook a bot's wallet is registered in with `npm run agentbook:register`. Never anywhere else.
 */

const REGISTER = 'src/demo/agentbook-register-cli.ts';
const register = (args: string[], env: Record<string, string>) => runEntry(REGISTER, args, { PATH: process.env.PATH ?? '', ...env });

describe('the local demo keeps its secrets in its data directory', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'newsroom-local-demo-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the first start makes local-secrets.json (mode 0600); the next reads the same; a set variable wins', () => {
    const data = join(dir, 'data-a');
    const first = prepareLocalDemo({ DATA_DIR: data })!;
    assert.ok(first.created);
    assert.deepEqual(first.supplies, ['HUMAN_SIGNING_SECRET', 'API_OPERATIONS_TOKEN']);
    assert.equal(first.secretsFile, join(data, LOCAL_SECRETS_FILE));
    assert.equal(statSync(first.secretsFile).mode & 0o777, 0o600);
    const stored = JSON.parse(readFileSync(first.secretsFile, 'utf8')) as { humanSigningSecret: string; operationsToken: string };
    assert.equal(first.env.HUMAN_SIGNING_SECRET, stored.humanSigningSecret);
    assert.equal(first.env.API_OPERATIONS_TOKEN, stored.operationsToken);
    assert.notEqual(stored.humanSigningSecret, stored.operationsToken);
    const config = loadConfig(first.env);
    assert.deepEqual(config.humanSigningSecrets, [stored.humanSigningSecret]);
    assert.equal(config.operationsToken, stored.operationsToken);
    assert.equal(config.agentbook.localFile, join(data, 'local-agentbook.json'));

    const again = prepareLocalDemo({ DATA_DIR: data })!;
    assert.equal(again.created, false);
    assert.equal(again.env.HUMAN_SIGNING_SECRET, stored.humanSigningSecret, 'one secret per data directory, not per process');
    const own = prepareLocalDemo({ DATA_DIR: data, HUMAN_SIGNING_SECRET: 'mine', API_OPERATIONS_TOKEN: 'ops-mine' })!;
    assert.deepEqual(own.supplies, []);
    assert.equal(own.env.HUMAN_SIGNING_SECRET, 'mine');
    assert.equal(own.env.API_OPERATIONS_TOKEN, 'ops-mine');
    const other = prepareLocalDemo({ DATA_DIR: join(dir, 'data-b') })!;
    assert.notEqual(other.env.HUMAN_SIGNING_SECRET, stored.humanSigningSecret, 'another data directory, another secret');
  });

  test('with the development login and no allowlist set, the console admits the demo admins; else never', () => {
    const data = join(dir, 'data-admins');
    const config = loadConfig(prepareLocalDemo({ DATA_DIR: data })!.env);
    assert.deepEqual(
      config.contentAdminIds,
      ['editor', 'approver', 'checker'].map((name) => devLinkedHumanId(name)),
    );
    assert.deepEqual(config.controlPlane.approverLinkedHumanIds, config.contentAdminIds);
    assert.deepEqual(
      config.rewardsAdminIds,
      ['treasurer', 'controller'].map((name) => devLinkedHumanId(name)),
    );
    assert.ok(!config.contentAdminIds.includes(devLinkedHumanId('reader')));
    const own = prepareLocalDemo({ DATA_DIR: data, REWARDS_ADMIN_IDS: 'h_mine' })!;
    assert.equal(own.demoAdmins, false, 'one allowlist of your own: no demo admin anywhere');
    assert.equal(own.env.CONTENT_ADMIN_IDS, undefined);
    assert.equal(own.env.CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS, undefined);
    const remote = prepareLocalDemo({ DATA_DIR: data, HUMAN_PROOF_VERIFIER: 'remote' })!;
    assert.equal(remote.demoAdmins, false, 'real World ID logins: no name is anyone');
    assert.equal(remote.env.CONTENT_ADMIN_IDS, undefined);
    const action = prepareLocalDemo({ DATA_DIR: data, WORLDID_LOGIN_ACTION: 'other-login' })!;
    assert.equal(
      action.env.REWARDS_ADMIN_IDS,
      DEMO_ADMINS.REWARDS_ADMIN_IDS.map((name) => devLinkedHumanId(name, 'other-login')).join(','),
    );
  });

  test('a damaged secrets file refuses to start, naming the file, rather than making new secrets silently', () => {
    const data = join(dir, 'data-damaged');
    prepareLocalDemo({ DATA_DIR: data });
    writeFileSync(join(data, LOCAL_SECRETS_FILE), '{"humanSigningSecret": 1}');
    assert.throws(
      () => prepareLocalDemo({ DATA_DIR: data }),
      (err: unknown) => err instanceof ConfigError && /local-secrets\.json lacks humanSigningSecret/.test(err.message),
    );
  });

  test('a data directory the secrets cannot be kept in refuses to start, naming DATA_DIR', () => {
    const notADirectory = join(dir, 'a-file');
    writeFileSync(notADirectory, 'not a directory');
    assert.throws(
      () => prepareLocalDemo({ DATA_DIR: notADirectory }),
      (err: unknown) => err instanceof ConfigError && err.message.includes('local-secrets.json'),
    );
  });

  test('never outside the local demo: a database server, production, a public deployment, an in-memory database', () => {
    for (const env of [
      { DATABASE_URL: 'postgres://db/newsroom' },
      { NODE_ENV: 'production' },
      { PUBLIC_DEPLOYMENT: '1' },
      { DATA_DIR: 'memory://' },
    ]) {
      const data = join(dir, `never-${Object.keys(env)[0]}`);
      const full = { DATA_DIR: data, ...env };
      assert.equal(localDemoDataDir(full), undefined, JSON.stringify(env));
      assert.equal(prepareLocalDemo(full), undefined, JSON.stringify(env));
      assert.equal(existsSync(data), false, `nothing written for ${JSON.stringify(env)}`);
    }
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://db/newsroom' }).agentbook.localFile, undefined);
    assert.equal(
      loadConfig({
        DATA_DIR: join(dir, 'rpc'),
        AGENTBOOK_MODE: 'rpc',
        AGENTBOOK_RPC_URL: 'http://127.0.0.1:1',
        AGENTBOOK_CONTRACT: `0x${'1'.repeat(40)}`,
      }).agentbook.localFile,
      undefined,
    );
  });

  test('agentbook:register refuses outside the local demo and writes nothing', async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const refusing: Record<string, string>[] = [
      { DATABASE_URL: 'postgres://db/newsroom' },
      { PUBLIC_DEPLOYMENT: '1' },
      { NODE_ENV: 'production' },
    ];
    for (const env of refusing) {
      const data = join(dir, `refuse-${Object.keys(env)[0]}`);
      const res = await register([address], { DATA_DIR: data, ...env });
      assert.equal(res.status, 2, res.stderr);
      assert.match(res.stderr, /only in the local demo/);
      assert.equal(existsSync(data), false);
    }
    const usage = await register(['0x123'], { DATA_DIR: join(dir, 'usage') });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /^usage: npm run agentbook:register/);
  });
});

/** Logs `name` in with the development login over real HTTP and answers the status of `path` with that session. */
async function consoleStatusAs(url: string, name: string, path = '/console') {
  let cookie = '';
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) cookie = [cookie, line.split(';')[0]].filter(Boolean).join('; ');
    return res;
  };
  const login = keep(await fetch(`${url}/login?lang=en`));
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await login.text())?.[1] ?? '';
  const posted = keep(
    await fetch(`${url}/login/dev`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: url },
      body: new URLSearchParams({ _csrf: csrf, lang: 'en', back: '/', name }),
    }),
  );
  assert.equal(posted.status, 303);
  return (await fetch(`${url}${path}?lang=en`, { headers: { cookie }, redirect: 'manual' })).status;
}

describe('npm start as it comes: the secrets and the local AgentBook at work', () => {
  let dir = '';
  let service: ServiceProcess | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'newsroom-local-start-'));
  });
  after(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the start log names the secrets file and the local AgentBook, never a secret; both survive a restart', async () => {
    const env = { DATA_DIR: join(dir, 'data'), SEED_DEMO: '0', LOG_LEVEL: 'info' };
    service = await startService(env);
    const secretsFile = join(dir, 'data', LOCAL_SECRETS_FILE);
    const secrets = JSON.parse(readFileSync(secretsFile, 'utf8')) as { humanSigningSecret: string; operationsToken: string };
    const log = service.output();
    assert.ok(log.includes(secretsFile), log);
    assert.ok(log.includes(join(dir, 'data', 'local-agentbook.json')), log);
    assert.ok(log.includes('npm run agentbook:register'), log);
    assert.ok(!log.includes(secrets.humanSigningSecret) && !log.includes(secrets.operationsToken), 'no secret in the log');
    assert.ok(log.includes('admits the development login’s editor, approver, checker'), log);
    assert.equal(await consoleStatusAs(service.url, 'editor'), 200, 'a demo content admin opens the console');
    assert.equal(await consoleStatusAs(service.url, 'treasurer', '/console/rewards/claims'), 200, 'a demo rewards admin opens rewards');
    assert.equal(await consoleStatusAs(service.url, 'reader'), 403, 'anyone else is refused');

    const signedWrite = (url: string, secret: string) =>
      createServiceClient({ baseUrl: url }).humanWrite(secret, '/v1/users/me/topics', {
        actorId: 'local-reader',
        verified: false,
        topic: 'science',
      });
    assert.equal((await signedWrite(service.url, secrets.humanSigningSecret)).status, 202);
    assert.equal((await signedWrite(service.url, 'another-secret')).status, 401);
    const compute = (url: string, token: string) =>
      fetch(`${url}/v1/publish/${'a'.repeat(64)}/compute`, { method: 'POST', headers: { 'x-operations-token': token } });
    assert.equal((await compute(service.url, secrets.operationsToken)).status, 404, 'the token opens the publish step');
    assert.equal((await compute(service.url, 'wrong-token')).status, 401);

    await service.stop();
    service = await startService(env);
    assert.deepEqual(JSON.parse(readFileSync(secretsFile, 'utf8')), secrets);
    assert.equal((await signedWrite(service.url, secrets.humanSigningSecret)).status, 202, 'the same secret after a restart');
    assert.equal((await compute(service.url, secrets.operationsToken)).status, 404);
  });

  test('a wallet registered with agentbook:register verifies its bot, while the service runs, without World App', async () => {
    assert.ok(service, 'the previous test started the service');
    const walletKey = generatePrivateKey();
    const wallet = privateKeyToAccount(walletKey);
    const key = generateAgentKey();
    const bot = createAgentClient({ baseUrl: service.url, key, wallet, maxRetries: 0 });
    await bot.join({ name: 'Local verified bot' });
    await assert.rejects(bot.verify(), (err: { code?: string; details?: { code?: string }[] }) => {
      assert.equal(err.details?.[0]?.code, 'UNREGISTERED');
      return true;
    });

    const res = await register([wallet.address], { DATA_DIR: join(dir, 'data') });
    assert.equal(res.status, 0, res.stderr);
    const registered = JSON.parse(res.stdout) as { address: string; humanId: string; linkedHumanId: string; agentbookFile: string };
    assert.equal(registered.address, wallet.address);
    assert.equal(registered.linkedHumanId, linkedHumanIdOf(registered.humanId));
    assert.deepEqual(await readLocalAgentBook(registered.agentbookFile), { [wallet.address.toLowerCase()]: registered.humanId });

    const verified = await bot.verify();
    assert.equal(verified.trustTier, 'VERIFIED');
    // registering again keeps the wallet's human
    const again = await register([wallet.address], { DATA_DIR: join(dir, 'data') });
    assert.equal((JSON.parse(again.stdout) as { humanId: string }).humanId, registered.humanId);
  });
});
