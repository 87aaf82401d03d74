import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

type Env = Record<string, string | undefined>;

/** The stores a fail-closed deployment needs, so that a test can break exactly one rule at a time. */
const REDIS_STORES: Env = { REDIS_URL: 'redis://127.0.0.1:6379', NONCE_STORE_DRIVER: 'redis', RATE_LIMIT_STORE_DRIVER: 'redis' };

/** Asserts that loadConfig refuses `env` with a ConfigError naming `variable` (in the field and the message). */
function assertRefused(env: Env, variable: string, messagePart?: RegExp): ConfigError {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof ConfigError, `expected a ConfigError for ${variable}, got ${String(caught)}`);
  assert.equal(caught.name, 'ConfigError');
  assert.equal(caught.variable, variable);
  assert.ok(caught.message.startsWith(`${variable}:`), `message names the variable: ${caught.message}`);
  if (messagePart) assert.match(caught.message, messagePart);
  return caught;
}

const publicKey = () => randomBytes(32).toString('base64url');
const botId = () => `bot_${randomBytes(16).toString('hex')}`;

describe('loadConfig defaults', () => {
  test('an empty environment gives a working local service', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.nodeEnv, 'development');
    assert.equal(config.publicDeployment, false);
    assert.equal(config.failClosed, false);
    assert.equal(config.nonceStoreDriver, 'memory');
    assert.equal(config.rateLimitStoreDriver, 'memory');
    assert.equal(config.redis, undefined);
    assert.equal(config.agentSignedWriteAud, 'svc');
    assert.equal(config.signatureMaxSkewMs, 300_000);
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, './data');
    // no key unless one is set: the pages sign nothing, so nothing is made up for them
    assert.deepEqual(config.humanSigningSecrets, []);
    assert.deepEqual(loadConfig({ HUMAN_SIGNING_SECRET: '' }).humanSigningSecrets, [], 'set empty: none');
    assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://db/x' }).humanSigningSecrets, [], 'a database server: none unless set');
    assert.deepEqual(config.agentBotRegistry, []);
    assert.equal(config.agentSelfServeJoin, true);
    assert.equal(config.agentRequireVerified, false);
    assert.equal(config.allowUnauthenticatedOperations, false);
    assert.equal(config.humanProofVerifier, 'dev');
    assert.equal(config.worldIdLoginAction, 'svc-login');
    assert.equal(config.rewardTokenDecimals, 18);
    assert.equal(config.claimsEnabled, false);
    assert.equal(config.claimMinConfirmations, 12);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.publicBaseUrl, 'http://127.0.0.1:8080');
    assert.deepEqual(config.worldAgentkitResourceOrigins, ['http://127.0.0.1:8080']);
    assert.deepEqual(config.controlPlane, {
      approverLinkedHumanIds: [],
      approvalMin: 2,
      enforceRequesterCannotApprove: true,
      explicitEnabled: false,
    });
    assert.deepEqual(config.rateLimits, {
      unverifiedWritesPerMinute: 30,
      verifiedWritesPerMinute: 300,
      humanWritesPerMinute: 120,
      publicReadsPerMinute: 600,
      siteLoginsPerMinute: 10,
      siteFormPostsPerMinute: 60,
    });
  });

  test('values are parsed: port, lists, secrets in rotation order, booleans', () => {
    const config = loadConfig({
      PORT: '9090',
      HOST: '0.0.0.0',
      HUMAN_SIGNING_SECRET: 'current',
      HUMAN_SIGNING_SECRET_PREVIOUS: 'previous',
      PUBLIC_API_KEYS: ' a , b ,,c ',
      AGENT_SELF_SERVE_JOIN: '0',
      AGENT_REQUIRE_VERIFIED: 'true',
      SIGNATURE_MAX_SKEW_MS: '60000',
      AGENT_SIGNED_WRITE_AUD: 'newsroom',
    });
    assert.equal(config.port, 9090);
    assert.equal(config.host, '0.0.0.0');
    assert.deepEqual(config.humanSigningSecrets, ['current', 'previous']);
    assert.deepEqual(config.publicApiKeys, ['a', 'b', 'c']);
    assert.equal(config.agentSelfServeJoin, false);
    assert.equal(config.agentRequireVerified, true);
    assert.equal(config.signatureMaxSkewMs, 60_000);
    assert.equal(config.agentSignedWriteAud, 'newsroom');
    assert.equal(config.publicBaseUrl, 'http://0.0.0.0:9090');
  });

  test('HUMAN_PROOF_VERIFIER defaults to remote in production', () => {
    const config = loadConfig({ NODE_ENV: 'production', ...REDIS_STORES });
    assert.equal(config.humanProofVerifier, 'remote');
    assert.equal(config.failClosed, true);
  });

  test('the config object is deeply frozen', () => {
    const config = loadConfig({ PUBLIC_API_KEYS: 'k1' });
    assert.ok(Object.isFrozen(config));
    assert.ok(Object.isFrozen(config.rateLimits));
    assert.ok(Object.isFrozen(config.publicApiKeys));
    assert.ok(Object.isFrozen(config.controlPlane));
    assert.throws(() => {
      (config as { port: number }).port = 1;
    }, TypeError);
    assert.throws(() => {
      (config.rateLimits as { publicReadsPerMinute: number }).publicReadsPerMinute = 1;
    }, TypeError);
    assert.throws(() => (config.publicApiKeys as string[]).push('k2'), TypeError);
    assert.equal(config.port, 8080);
    assert.deepEqual(config.publicApiKeys, ['k1']);
  });
});

describe('fail-closed deployments', () => {
  for (const [label, mode] of [
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
    ['PUBLIC_DEPLOYMENT=1', { PUBLIC_DEPLOYMENT: '1' }],
  ] as const) {
    describe(label, () => {
      test('refuses the default memory nonce store', () => {
        assertRefused({ ...mode }, 'NONCE_STORE_DRIVER', /must be redis/);
      });
      test('refuses a memory rate-limit store', () => {
        assertRefused(
          { ...mode, REDIS_URL: 'redis://127.0.0.1:6379', NONCE_STORE_DRIVER: 'redis' },
          'RATE_LIMIT_STORE_DRIVER',
          /must be redis/,
        );
      });
      test('refuses redis stores without REDIS_URL', () => {
        assertRefused({ ...mode, NONCE_STORE_DRIVER: 'redis', RATE_LIMIT_STORE_DRIVER: 'redis' }, 'REDIS_URL');
      });
      test('refuses ALLOW_UNAUTHENTICATED_OPERATIONS=1', () => {
        assertRefused({ ...mode, ...REDIS_STORES, ALLOW_UNAUTHENTICATED_OPERATIONS: '1' }, 'ALLOW_UNAUTHENTICATED_OPERATIONS', /forbidden/);
      });
      test('refuses WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1', () => {
        assertRefused({ ...mode, ...REDIS_STORES, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1' }, 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES');
      });
      test('starts with both stores on redis', () => {
        const config = loadConfig({ ...mode, ...REDIS_STORES, HUMAN_PROOF_VERIFIER: 'remote' });
        assert.equal(config.failClosed, true);
        assert.equal(config.nonceStoreDriver, 'redis');
        assert.equal(config.rateLimitStoreDriver, 'redis');
        assert.deepEqual(config.redis, { kind: 'url', url: 'redis://127.0.0.1:6379' });
      });
    });
  }

  test('ALLOW_UNAUTHENTICATED_OPERATIONS=1 is accepted outside fail-closed deployments', () => {
    assert.equal(loadConfig({ ALLOW_UNAUTHENTICATED_OPERATIONS: '1' }).allowUnauthenticatedOperations, true);
  });

  test('HUMAN_PROOF_VERIFIER=dev (proofs anyone can make) is refused in production and on a public deployment, accepted locally', () => {
    assertRefused({ NODE_ENV: 'production', ...REDIS_STORES, HUMAN_PROOF_VERIFIER: 'dev' }, 'HUMAN_PROOF_VERIFIER', /production/);
    assertRefused({ PUBLIC_DEPLOYMENT: '1', ...REDIS_STORES, HUMAN_PROOF_VERIFIER: 'dev' }, 'HUMAN_PROOF_VERIFIER', /PUBLIC_DEPLOYMENT=1/);
    assert.equal(loadConfig({ HUMAN_PROOF_VERIFIER: 'dev' }).humanProofVerifier, 'dev');
    assert.equal(loadConfig({}).humanProofVerifier, 'dev');
    assert.equal(loadConfig({ PUBLIC_DEPLOYMENT: '1', ...REDIS_STORES }).humanProofVerifier, 'remote');
  });

  test('a redis store driver needs REDIS_URL even outside production', () => {
    assertRefused({ NONCE_STORE_DRIVER: 'redis' }, 'REDIS_URL');
    assertRefused({ RATE_LIMIT_STORE_DRIVER: 'redis' }, 'REDIS_URL');
  });
});

describe('Redis beyond one node', () => {
  const stores = { NONCE_STORE_DRIVER: 'redis', RATE_LIMIT_STORE_DRIVER: 'redis' };

  test('REDIS_SENTINELS with REDIS_SENTINEL_NAME: a master found through Sentinel', () => {
    const config = loadConfig({
      ...stores,
      REDIS_SENTINELS: '10.0.0.1:26379, sentinel-b:26380,[::1]:26381',
      REDIS_SENTINEL_NAME: 'mymaster',
    });
    assert.deepEqual(config.redis, {
      kind: 'sentinel',
      name: 'mymaster',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-b', port: 26380 },
        { host: '::1', port: 26381 },
      ],
    });
  });

  test('REDIS_CLUSTER_NODES: a Redis Cluster, with the key prefix kept', () => {
    const config = loadConfig({ ...stores, REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1:7001', REDIS_KEY_PREFIX: 'news:' });
    assert.deepEqual(config.redis, {
      kind: 'cluster',
      nodes: [
        { host: '127.0.0.1', port: 7000 },
        { host: '127.0.0.1', port: 7001 },
      ],
    });
    assert.equal(config.redisKeyPrefix, 'news:');
    // either satisfies a fail-closed deployment's need for Redis
    assert.equal(
      loadConfig({ ...stores, NODE_ENV: 'production', HUMAN_SIGNING_SECRET: 's', REDIS_CLUSTER_NODES: 'r:7000' }).redis?.kind,
      'cluster',
    );
  });

  test('exactly one of REDIS_URL, REDIS_SENTINELS, REDIS_CLUSTER_NODES: a mixture names the variable', () => {
    const url = { REDIS_URL: 'redis://127.0.0.1:6379' };
    const sentinel = { REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_NAME: 'mymaster' };
    const cluster = { REDIS_CLUSTER_NODES: 'a:7000' };
    assertRefused({ ...stores, ...url, ...sentinel }, 'REDIS_SENTINELS', /exactly one/);
    assertRefused({ ...stores, ...url, ...cluster }, 'REDIS_CLUSTER_NODES', /cannot be set with REDIS_URL/);
    assertRefused({ ...stores, ...sentinel, ...cluster }, 'REDIS_CLUSTER_NODES', /cannot be set with REDIS_SENTINELS/);
  });

  test('sentinel name, host:port lists and the prefix on a cluster are checked', () => {
    assertRefused({ ...stores, REDIS_SENTINELS: 'a:26379' }, 'REDIS_SENTINEL_NAME', /required/);
    assertRefused(
      { ...stores, REDIS_URL: 'redis://a:6379', REDIS_SENTINEL_NAME: 'mymaster' },
      'REDIS_SENTINEL_NAME',
      /needs REDIS_SENTINELS/,
    );
    assertRefused({ ...stores, REDIS_CLUSTER_NODES: 'a' }, 'REDIS_CLUSTER_NODES', /host:port/);
    assertRefused({ ...stores, REDIS_CLUSTER_NODES: 'a:0' }, 'REDIS_CLUSTER_NODES', /host:port/);
    assertRefused({ ...stores, REDIS_CLUSTER_NODES: 'a:65536' }, 'REDIS_CLUSTER_NODES', /host:port/);
    assertRefused({ ...stores, REDIS_CLUSTER_NODES: ' , ' }, 'REDIS_CLUSTER_NODES');
    assertRefused({ ...stores, REDIS_SENTINELS: 'redis://a:26379', REDIS_SENTINEL_NAME: 'm' }, 'REDIS_SENTINELS', /host:port/);
    assertRefused({ ...stores, REDIS_CLUSTER_NODES: 'a:7000', REDIS_KEY_PREFIX: 'svc:{x}:' }, 'REDIS_KEY_PREFIX', /\{/);
    // a braced prefix is left alone on one server
    assert.equal(loadConfig({ ...stores, REDIS_URL: 'redis://a:6379', REDIS_KEY_PREFIX: 'svc:{x}:' }).redisKeyPrefix, 'svc:{x}:');
  });
});

describe('bad values name their variable', () => {
  test('PORT', () => {
    assertRefused({ PORT: 'eighty' }, 'PORT', /integer/);
    assertRefused({ PORT: '65536' }, 'PORT', /between/);
    assertRefused({ PORT: '-1' }, 'PORT', /between/);
    assertRefused({ PORT: '80.5' }, 'PORT');
  });

  test('DATABASE_READ_URL needs DATABASE_URL; DATABASE_READ_MAX_LAG_MS has a range and a default', () => {
    assertRefused({ DATABASE_READ_URL: 'postgres://replica/db' }, 'DATABASE_READ_URL', /needs DATABASE_URL/);
    assertRefused({ DATABASE_URL: 'postgres://primary/db', DATABASE_READ_URL: 'http://replica' }, 'DATABASE_READ_URL');
    assertRefused({ DATABASE_READ_MAX_LAG_MS: '50' }, 'DATABASE_READ_MAX_LAG_MS', /between/);
    const config = loadConfig({ DATABASE_URL: 'postgres://primary/db', DATABASE_READ_URL: 'postgres://replica/db' });
    assert.equal(config.databaseReadUrl, 'postgres://replica/db');
    assert.equal(config.databaseReadMaxLagMs, 5_000);
    assert.equal(loadConfig({}).databaseReadUrl, undefined);
  });

  test('DATABASE_PREPARED_STATEMENTS is on unless turned off', () => {
    assert.equal(loadConfig({}).databasePreparedStatements, true);
    assert.equal(loadConfig({ DATABASE_PREPARED_STATEMENTS: '0' }).databasePreparedStatements, false);
    assertRefused({ DATABASE_PREPARED_STATEMENTS: 'sometimes' }, 'DATABASE_PREPARED_STATEMENTS', /expected 0 or 1/);
  });

  test('booleans', () => {
    assertRefused({ PUBLIC_DEPLOYMENT: 'maybe' }, 'PUBLIC_DEPLOYMENT', /expected 0 or 1/);
    assertRefused({ AGENT_SELF_SERVE_JOIN: '2' }, 'AGENT_SELF_SERVE_JOIN');
    assertRefused({ ALLOW_UNAUTHENTICATED_OPERATIONS: 'on' }, 'ALLOW_UNAUTHENTICATED_OPERATIONS');
  });

  test('store drivers, URLs, verifier, log level, secrets', () => {
    assertRefused({ NONCE_STORE_DRIVER: 'postgres' }, 'NONCE_STORE_DRIVER');
    assertRefused({ REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL');
    assertRefused({ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL');
    assertRefused({ DATABASE_URL: 'not a url' }, 'DATABASE_URL', /not a valid URL/);
    assertRefused({ HUMAN_PROOF_VERIFIER: 'trust-me' }, 'HUMAN_PROOF_VERIFIER');
    assertRefused({ LOG_LEVEL: 'loud' }, 'LOG_LEVEL');
    assertRefused({ HUMAN_SIGNING_SECRET_PREVIOUS: 'old' }, 'HUMAN_SIGNING_SECRET_PREVIOUS');
    assertRefused({ SIGNATURE_MAX_SKEW_MS: '10' }, 'SIGNATURE_MAX_SKEW_MS');
  });

  test('MIGRATION_DATABASE_URL: a PostgreSQL URL, and only beside DATABASE_URL', () => {
    const runtime = 'postgres://newsroom_app@db.internal/newsroom';
    const owner = 'postgres://newsroom_owner@db.internal/newsroom';
    assert.equal(loadConfig({ DATABASE_URL: runtime, MIGRATION_DATABASE_URL: owner }).migrationDatabaseUrl, owner);
    assert.equal(loadConfig({ DATABASE_URL: runtime }).migrationDatabaseUrl, undefined, 'unset: migrations run on DATABASE_URL');
    assertRefused({ MIGRATION_DATABASE_URL: owner }, 'MIGRATION_DATABASE_URL', /needs DATABASE_URL/);
    assertRefused({ DATABASE_URL: runtime, MIGRATION_DATABASE_URL: 'mysql://db.internal/newsroom' }, 'MIGRATION_DATABASE_URL');
    assertRefused({ DATABASE_URL: runtime, MIGRATION_DATABASE_URL: 'owner@db' }, 'MIGRATION_DATABASE_URL', /not a valid URL/);
  });

  test('WEBHOOK_ENDPOINTS must be https URLs', () => {
    assertRefused({ WEBHOOK_ENDPOINTS: 'http://hooks.example.com/in' }, 'WEBHOOK_ENDPOINTS', /https/);
    assertRefused({ WEBHOOK_ENDPOINTS: 'https://ok.example.com/in,http://bad.example.com/in' }, 'WEBHOOK_ENDPOINTS', /bad\.example\.com/);
    assertRefused({ WEBHOOK_ENDPOINTS: 'not-a-url' }, 'WEBHOOK_ENDPOINTS');
    assert.deepEqual(
      loadConfig({ WEBHOOK_ENDPOINTS: 'https://a.example.com/in, https://b.example.com/in', WEBHOOK_SIGNING_SECRET: 's' }).webhooks
        .endpoints,
      ['https://a.example.com/in', 'https://b.example.com/in'],
    );
  });

  test('webhook endpoints need a signing secret, an allowlisted host and no credentials', () => {
    assertRefused({ WEBHOOK_ENDPOINTS: 'https://a.example.com/in' }, 'WEBHOOK_SIGNING_SECRET');
    const secret = { WEBHOOK_SIGNING_SECRET: 's' };
    assertRefused(
      { ...secret, WEBHOOK_ENDPOINTS: 'https://a.example.com/in', WEBHOOK_HOST_ALLOWLIST: 'b.example.com' },
      'WEBHOOK_ENDPOINTS',
      /allowlist/i,
    );
    assertRefused({ ...secret, WEBHOOK_ENDPOINTS: 'https://user:pw@a.example.com/in' }, 'WEBHOOK_ENDPOINTS', /credentials/);
    assertRefused({ WEBHOOK_WORKER: 'sometimes' }, 'WEBHOOK_WORKER');
    assertRefused({ WEBHOOK_ALLOW_LOOPBACK_FOR_TESTS: '1' }, 'WEBHOOK_ALLOW_LOOPBACK_FOR_TESTS', /WEBHOOK_ALLOW_PRIVATE_ADDRESSES/);
    assertRefused({ WEBHOOK_RETRY_BASE_MS: '5000', WEBHOOK_RETRY_CAP_MS: '1000' }, 'WEBHOOK_RETRY_CAP_MS');
    const ok = loadConfig({ ...secret, WEBHOOK_ENDPOINTS: 'https://A.example.com/in', WEBHOOK_HOST_ALLOWLIST: 'a.example.com' });
    assert.equal(ok.webhooks.worker, 'in-process');
    assert.equal(ok.webhooks.allowPrivateAddresses, false);
  });
});

describe('AGENT_BOT_REGISTRY', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const entry = (overrides: Record<string, unknown> = {}) => ({
    botId: botId(),
    publicKeys: [{ version: 1, publicKey: publicKey() }],
    permissions: ['candidates:submit'],
    ...overrides,
  });
  const registry = (...entries: unknown[]) => ({ AGENT_BOT_REGISTRY: JSON.stringify(entries) });

  test('a valid inline registry is parsed', () => {
    const e = entry({
      verified: true,
      linkedHumanId: 'h_1',
      publicKeys: [
        { version: 1, publicKey: publicKey() },
        { version: 2, publicKey: publicKey() },
      ],
    });
    const config = loadConfig(registry(e));
    assert.equal(config.agentBotRegistry.length, 1);
    assert.deepEqual(config.agentBotRegistry[0], e);
    assert.equal(loadConfig(registry(entry())).agentBotRegistry[0]!.verified, false);
  });

  test('not JSON', () => {
    assertRefused({ AGENT_BOT_REGISTRY: '[{botId:' }, 'AGENT_BOT_REGISTRY', /not valid JSON/);
  });

  test('not an array', () => {
    assertRefused({ AGENT_BOT_REGISTRY: JSON.stringify(entry()) }, 'AGENT_BOT_REGISTRY', /array/);
  });

  test('bad botId', () => {
    assertRefused(registry(entry({ botId: 'bot_xyz' })), 'AGENT_BOT_REGISTRY', /botId/);
    assertRefused(registry(entry({ botId: `bot_${'A'.repeat(32)}` })), 'AGENT_BOT_REGISTRY', /botId/);
    assertRefused(registry(entry({ botId: 42 })), 'AGENT_BOT_REGISTRY', /botId/);
  });

  test('a public key that is not 32 bytes', () => {
    assertRefused(
      registry(entry({ publicKeys: [{ version: 1, publicKey: randomBytes(31).toString('base64url') }] })),
      'AGENT_BOT_REGISTRY',
      /32-byte/,
    );
    assertRefused(
      registry(entry({ publicKeys: [{ version: 1, publicKey: randomBytes(33).toString('base64url') }] })),
      'AGENT_BOT_REGISTRY',
      /32-byte/,
    );
    assertRefused(registry(entry({ publicKeys: [{ version: 0, publicKey: publicKey() }] })), 'AGENT_BOT_REGISTRY');
    assertRefused(registry(entry({ publicKeys: [] })), 'AGENT_BOT_REGISTRY', /non-empty/);
  });

  test('a duplicate key version', () => {
    assertRefused(
      registry(
        entry({
          publicKeys: [
            { version: 1, publicKey: publicKey() },
            { version: 1, publicKey: publicKey() },
          ],
        }),
      ),
      'AGENT_BOT_REGISTRY',
      /duplicate key version 1/,
    );
  });

  test('the error names the entry at fault', () => {
    assertRefused(registry(entry(), entry({ permissions: 'all' })), 'AGENT_BOT_REGISTRY', /entry 1/);
  });

  test('@path reads the registry from a file', () => {
    const e = entry();
    const file = join(dir, 'registry.json');
    writeFileSync(file, JSON.stringify([e]));
    const config = loadConfig({ AGENT_BOT_REGISTRY: `@${file}` });
    assert.deepEqual(config.agentBotRegistry, [{ ...e, verified: false }]);
  });

  test('@path of a missing file or a file with bad JSON is refused', () => {
    assertRefused({ AGENT_BOT_REGISTRY: `@${join(dir, 'missing.json')}` }, 'AGENT_BOT_REGISTRY', /cannot read/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ nope');
    assertRefused({ AGENT_BOT_REGISTRY: `@${bad}` }, 'AGENT_BOT_REGISTRY', /not valid JSON/);
  });
});

test('docs/operators.md names every variable src/config.ts reads', () => {
  const source = readFileSync(new URL('../../src/config.ts', import.meta.url), 'utf8');
  const docs = readFileSync(new URL('../../docs/operators.md', import.meta.url), 'utf8');
  const names = new Set([...source.matchAll(/env(?:\.|, ')([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
  assert.ok(names.has('DATABASE_READ_URL') && names.size > 40, `found ${names.size} variables`);
  assert.deepEqual(
    [...names].filter((name) => !docs.includes(name)),
    [],
  );
});
