import { join } from 'node:path';
import { readFileSync } from 'node:fs';

/**
 * A bot id as the registry must spell it (`bot_` + 32 hex, the form platform/schemas.ts validates on requests).
 * Written here so that configuration, which everything reads, depends on nothing of the service.
 */
const REGISTRY_BOT_ID = /^bot_[0-9a-f]{32}$/;

/**
 * The one place that reads process.env. Every variable is parsed and validated here (operators find them all in
 * docs/operators.md); a bad
 * value or a bad combination throws a ConfigError naming the variable, and the service refuses to start.
 * The result is frozen and passed explicitly to whatever needs it.
 */

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export type StoreDriver = 'memory' | 'redis';

/** One Redis server (a sentinel, or a node of a cluster). */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * Where Redis is: one server (REDIS_URL), a master found through Sentinel (REDIS_SENTINELS and
 * REDIS_SENTINEL_NAME), or a Redis Cluster (REDIS_CLUSTER_NODES, a few of its nodes: the others are discovered).
 */
export type RedisTarget =
  { kind: 'url'; url: string } | { kind: 'sentinel'; sentinels: RedisNode[]; name: string } | { kind: 'cluster'; nodes: RedisNode[] };

export interface RegistryBot {
  botId: string;
  publicKeys: { version: number; publicKey: string }[];
  permissions: string[];
  verified: boolean;
  linkedHumanId?: string;
}

export interface Config {
  /** PORT, HOST: listen address. */
  port: number;
  host: string;
  /** NODE_ENV: `production` turns on every fail-closed rule. */
  nodeEnv: string;
  /** PUBLIC_DEPLOYMENT=1: the same fail-closed rules on a non-production deployment. */
  publicDeployment: boolean;
  /** production or public: every fail-closed rule applies. */
  failClosed: boolean;
  /**
   * DATABASE_URL: PostgreSQL server the service connects to, as the runtime role (reads and writes rows, owns
   * nothing, so a bug cannot alter the schema or the audit triggers); unset = embedded PGlite in DATA_DIR.
   */
  databaseUrl: string | undefined;
  /**
   * MIGRATION_DATABASE_URL: the same database as the role that owns the schema, for `npm run migrate` and the
   * migration at start (a connection of its own, closed before the service serves). Unset: migrations run on
   * DATABASE_URL (one role, as in local development). Needs DATABASE_URL.
   */
  migrationDatabaseUrl: string | undefined;
  /**
   * DATABASE_READ_URL: a streaming read replica of DATABASE_URL (same role); the public reads go to it while it
   * keeps up, everything else stays on DATABASE_URL. Needs DATABASE_URL.
   */
  databaseReadUrl: string | undefined;
  /** DATABASE_READ_MAX_LAG_MS: a replica further behind than this is skipped (its reads go to DATABASE_URL). */
  databaseReadMaxLagMs: number;
  /** DATA_DIR: PGlite data directory (`memory://` keeps it in memory). */
  dataDir: string;
  /** DATABASE_POOL_MAX: node-postgres pool size. */
  databasePoolMax: number;
  /**
   * DATABASE_PREPARED_STATEMENTS (default 1): the hot statements go by name, planned once per connection
   * (src/platform/db/prepared-statements.ts). 0 behind a transaction pooler that does not keep track of named
   * statements (a PgBouncer before 1.21).
   */
  databasePreparedStatements: boolean;
  /**
   * Redis for nonces, rate limits and the read generations: exactly one of REDIS_URL, REDIS_SENTINELS (with
   * REDIS_SENTINEL_NAME) or REDIS_CLUSTER_NODES; undefined when none is set.
   */
  redis: RedisTarget | undefined;
  /** REDIS_KEY_PREFIX: put before every key (default `svc:`); no `{` or `}` on a cluster (the keys' hash tags). */
  redisKeyPrefix: string;
  /** NONCE_STORE_DRIVER, RATE_LIMIT_STORE_DRIVER. */
  nonceStoreDriver: StoreDriver;
  rateLimitStoreDriver: StoreDriver;
  /**
   * HUMAN_SIGNING_SECRET then HUMAN_SIGNING_SECRET_PREVIOUS (rotation): the keys of the human signed requests
   * other front ends send; none: those routes answer 503. The service's own pages sign nothing (they call the
   * services in process) and work without one.
   */
  humanSigningSecrets: string[];
  /**
   * SESSION_SECRET: the key that signs the reader site's session cookies (32 characters or more; several instances
   * must share it). Unset: derived from HUMAN_SIGNING_SECRET (or random per process when that is unset too).
   */
  sessionSecret: string | undefined;
  /**
   * CURSOR_SIGNING_SECRET: the key of the pagination cursors' checks. Unset: derived from HUMAN_SIGNING_SECRET,
   * or random per process when that is unset too (then a cursor is good on the instance that issued it only;
   * several instances must share one of the two secrets).
   */
  cursorSigningSecret: string | undefined;
  /** SIGNATURE_MAX_SKEW_MS: accepted clock skew of human and agent timestamps. */
  signatureMaxSkewMs: number;
  /** AGENT_SIGNED_WRITE_AUD: the `aud` of agent messages. */
  agentSignedWriteAud: string;
  /** AGENT_BOT_REGISTRY: server-owned bots (inline JSON or @path). */
  agentBotRegistry: RegistryBot[];
  /** AGENT_SELF_SERVE_JOIN: 0 = /v1/agents/join answers 403. */
  agentSelfServeJoin: boolean;
  /** AGENT_REQUIRE_VERIFIED: 1 = unverified agent writes answer 403. */
  agentRequireVerified: boolean;
  /** PUBLIC_API_KEYS: read-only keys for candidate status/evidence. */
  publicApiKeys: string[];
  /** API_OPERATIONS_TOKEN and ALLOW_UNAUTHENTICATED_OPERATIONS (loopback only, never when fail-closed). */
  operationsToken: string | undefined;
  allowUnauthenticatedOperations: boolean;
  /** API_ORIGIN: CORS allowlist. */
  apiOrigins: string[];
  /** PUBLIC_BASE_URL: the service's own origin. */
  publicBaseUrl: string;
  /** WORLD_AGENTKIT_RESOURCE_ORIGINS: origins an agentproof may be signed for. */
  worldAgentkitResourceOrigins: string[];
  /** CONTENT_ADMIN_IDS, REWARDS_ADMIN_IDS: identity-key allowlists (exact case). */
  contentAdminIds: string[];
  rewardsAdminIds: string[];
  controlPlane: {
    /** CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: who may approve control-plane requests (identity keys, exact case). */
    approverLinkedHumanIds: string[];
    /** CONTROL_PLANE_APPROVAL_MIN: distinct approvals that execute a request (default 2). */
    approvalMin: number;
    /** CONTROL_PLANE_ENFORCE_REQUESTER_CANNOT_APPROVE (default 1). */
    enforceRequesterCannotApprove: boolean;
    /** FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED: 1 = governance changes need an executed control-plane request. */
    explicitEnabled: boolean;
  };
  /** WORLDID_LOGIN_ACTION: the World ID action of every login (default svc-login). */
  worldIdLoginAction: string;
  /** WORLDID_SESSION_TTL_SECONDS: how long a login binds the actor to its linked human (default 7 days). */
  worldIdSessionTtlSeconds: number;
  /** HUMAN_PROOF_VERIFIER: dev (an HMAC proof anyone can make, so refused in production and public deployments) or remote (provider APIs). */
  humanProofVerifier: 'dev' | 'remote';
  /** WORLDID_APP_ID, WORLDID_VERIFY_URL: World ID's cloud verification (the URL overrides the app's default one). */
  worldIdAppId: string | undefined;
  worldIdVerifyUrl: string | undefined;
  /** HUMAN_PROOF_<PROVIDER>_VERIFY_URL: the secondary providers' verification endpoints. */
  humanProofVerifyUrls: Record<string, string | undefined>;
  /** HUMAN_PROOF_VERIFY_TIMEOUT_MS: a provider that has not answered by then is unavailable (503). */
  humanProofVerifyTimeoutMs: number;
  /** Outbound webhooks: signed POSTs of corrections and retractions. */
  webhooks: {
    /** WEBHOOK_ENDPOINTS: HTTPS URLs that receive story.correction and story.retraction. */
    endpoints: string[];
    /** WEBHOOK_HOST_ALLOWLIST: when set, the only hosts ever called (exact, lowercase). */
    hostAllowlist: string[];
    /** WEBHOOK_SIGNING_SECRET: HMAC key of x-svc-webhook-signature; required when endpoints are set. */
    signingSecret: string | undefined;
    /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES: test-only, deliveries may reach loopback/private addresses; refused when fail-closed. */
    allowPrivateAddresses: boolean;
    /** WEBHOOK_WORKER: in-process (default) runs the delivery worker in the service; off leaves it to `npm run worker`. */
    worker: 'in-process' | 'off';
    /** WEBHOOK_TIMEOUT_MS: one attempt's limit (connect to end of response), default 10 s. */
    timeoutMs: number;
    /** WEBHOOK_RETRY_BASE_MS, WEBHOOK_RETRY_CAP_MS: exponential backoff base (10 s) and cap (1 h). */
    retryBaseMs: number;
    retryCapMs: number;
    /** WEBHOOK_MAX_AGE_MS: a delivery not done this long after its event is DEAD (default 24 h). */
    maxAgeMs: number;
    /** WEBHOOK_CONCURRENCY: deliveries in flight per worker (default 4). */
    concurrency: number;
    /** WEBHOOK_POLL_MS: how often an idle worker looks for due deliveries (default 1 s). */
    pollMs: number;
    /** WEBHOOK_RETENTION_DAYS: `npm run retention` removes deliveries that ended longer ago, and their events (default 30). */
    retentionDays: number;
  };
  rewardTokenDecimals: number;
  claimsEnabled: boolean;
  chainRpcUrl: string | undefined;
  claimDistributorAddress: string | undefined;
  claimMinConfirmations: number;
  // rewards: REWARDS_DAILY_PAID_ACTIONS_L3 / _L2 / _L0: paid actions (reward votes) per person and
  // UTC day by recorded tier; REWARDS_REVIEW_DUE_HOURS: a review case not closed by then is OVERDUE.
  rewards: {
    dailyPaidActions: { L3: number; L2: number; L0: number };
    reviewDueHours: number;
    /**
     * SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: a settlement pool or batch total above this many orbs (display units)
     * needs a second rewards admin's approval (default 1000; 0: every run and finalize).
     */
    secondApprovalAboveOrbs: string;
  };
  /**
   * AGENTBOOK_MODE, AGENTBOOK_STATIC, AGENTBOOK_RPC_URL, AGENTBOOK_CONTRACT. `localFile`: the local AgentBook of the
   * local demo (static mode, `localDemoDataDir`): DATA_DIR/local-agentbook.json, which `npm run agentbook:register`
   * writes and every lookup reads after AGENTBOOK_STATIC; never set otherwise.
   */
  agentbook: {
    mode: 'static' | 'rpc';
    staticMap: Record<string, string>;
    rpcUrl: string | undefined;
    contract: string | undefined;
    localFile: string | undefined;
  };
  /** TRUST_PROXY: Fastify trustProxy value; unset = the socket address is the client. */
  trustProxy: boolean | string | number | undefined;
  logLevel: string;
  /** Per-tier limits per minute (RATE_LIMIT_*). */
  rateLimits: {
    unverifiedWritesPerMinute: number;
    verifiedWritesPerMinute: number;
    humanWritesPerMinute: number;
    publicReadsPerMinute: number;
    /** RATE_LIMIT_SITE_LOGINS_PER_MINUTE: the reader site's login steps (dev login, World ID start and finish) per client address (default 10). */
    siteLoginsPerMinute: number;
    /** RATE_LIMIT_SITE_FORMS_PER_MINUTE: every other form post of the reader site and the console per client address (default 60). */
    siteFormPostsPerMinute: number;
  };
  // verified agents
  /** RATE_LIMIT_AGENT_JOINS_PER_MINUTE: self-serve joins per client address (default 10). */
  agentJoinsPerMinute: number;
  /**
   * READ_CACHE_TTL_MS (0 disables), READ_CACHE_STORY_TTL_MS (the life of a body the clock changes only at known
   * instants: story detail) and READ_CACHE_MAX_MB: the public read cache (src/platform/read-cache.ts).
   */
  readCache: { ttlMs: number; clockKnownTtlMs: number; maxBytes: number };
  /** SEED_DEMO: seed the demo newsroom into an empty database at start (default on for the embedded database). */
  seedDemo: boolean;
  // the HTTP edge: Node's server limits and timeouts, set explicitly, and the shutdown
  http: {
    /** HTTP_HEADERS_TIMEOUT_MS: a connection whose request headers are not all in by then is answered 408 and closed (default 10000). */
    headersTimeoutMs: number;
    /** HTTP_REQUEST_TIMEOUT_MS: the same for the whole request, headers and body (default 30000; not below the headers timeout). */
    requestTimeoutMs: number;
    /** HTTP_KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this (default 72000, above the 60 s idle timeout of common load balancers). */
    keepAliveTimeoutMs: number;
    /** HTTP_CONNECTIONS_CHECK_MS: how often the two timeouts above are checked (default 1000; Node's own is 30000). */
    connectionsCheckingIntervalMs: number;
    /** HTTP_MAX_HEADER_BYTES: request line and headers together; more is 431, or 414 when the request line alone is over (default 16384). */
    maxHeaderBytes: number;
    /** HTTP_MAX_URL_BYTES: the request target (path and query); longer is 414 (default 8192). */
    maxUrlBytes: number;
    /** HTTP_BODY_LIMIT_BYTES: a longer request body is 413 (default 1048576). */
    bodyLimitBytes: number;
  };
  shutdown: {
    /** SHUTDOWN_READINESS_DELAY_MS: after SIGTERM, /readyz answers 503 for this long while requests are still served, so a load balancer stops sending new ones (default 0). */
    readinessDelayMs: number;
    /** SHUTDOWN_TIMEOUT_MS: requests in flight get this long to finish once the listener is closed; connections still open then are cut (default 10000). */
    timeoutMs: number;
  };
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (['1', 'true', 'yes'].includes(v.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(v.toLowerCase())) return false;
  throw new ConfigError(name, `expected 0 or 1, got "${v}"`);
}

function int(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (!/^-?\d+$/.test(v)) throw new ConfigError(name, `expected an integer, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** An amount of orbs in display units (a decimal text such as 1000 or 2.5, at most 36 decimals). */
function orbs(env: Env, name: string, fallback: string): string {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,40}(\.\d{1,36})?$/.test(raw)) throw new ConfigError(name, 'must be an amount of orbs such as 1000 or 2.5 (0: every run)');
  return raw;
}

function list(env: Env, name: string): string[] {
  return (str(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function driver(env: Env, name: string): StoreDriver {
  const v = str(env, name) ?? 'memory';
  if (v !== 'memory' && v !== 'redis') throw new ConfigError(name, `expected memory or redis, got "${v}"`);
  return v;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const v = str(env, name);
  if (v === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  return v;
}

/** A comma-separated list of host:port (IPv6 hosts in brackets); undefined when the variable is unset. */
function hostPorts(env: Env, name: string): RedisNode[] | undefined {
  if (str(env, name) === undefined) return undefined;
  const items = list(env, name);
  if (items.length === 0) throw new ConfigError(name, 'expected host:port[,host:port...]');
  return items.map((item) => {
    const m = /^(\[[0-9a-fA-F:.]+\]|[^:\s[\]]+):(\d{1,5})$/.exec(item);
    const port = Number(m?.[2]);
    if (!m || port < 1 || port > 65535) throw new ConfigError(name, `expected host:port, got "${item}"`);
    return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port };
  });
}

/** REDIS_URL, REDIS_SENTINELS + REDIS_SENTINEL_NAME, REDIS_CLUSTER_NODES: at most one way to reach Redis. */
function parseRedis(env: Env): RedisTarget | undefined {
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const sentinels = hostPorts(env, 'REDIS_SENTINELS');
  const sentinelName = str(env, 'REDIS_SENTINEL_NAME');
  const clusterNodes = hostPorts(env, 'REDIS_CLUSTER_NODES');
  const set = [redisUrl && 'REDIS_URL', sentinels && 'REDIS_SENTINELS', clusterNodes && 'REDIS_CLUSTER_NODES'].filter((v): v is string =>
    Boolean(v),
  );
  if (set.length > 1)
    throw new ConfigError(set[1]!, `cannot be set with ${set[0]}: set exactly one of REDIS_URL, REDIS_SENTINELS, REDIS_CLUSTER_NODES`);
  if (sentinelName !== undefined && !sentinels) throw new ConfigError('REDIS_SENTINEL_NAME', 'needs REDIS_SENTINELS');
  if (sentinels) {
    if (sentinelName === undefined)
      throw new ConfigError('REDIS_SENTINEL_NAME', 'is required with REDIS_SENTINELS (the master name the sentinels monitor)');
    return { kind: 'sentinel', sentinels, name: sentinelName };
  }
  if (clusterNodes) {
    if (/[{}]/.test(str(env, 'REDIS_KEY_PREFIX') ?? ''))
      throw new ConfigError('REDIS_KEY_PREFIX', 'must not contain { or } with REDIS_CLUSTER_NODES (the service hash-tags its keys)');
    return { kind: 'cluster', nodes: clusterNodes };
  }
  return redisUrl ? { kind: 'url', url: redisUrl } : undefined;
}

function jsonOrFile(env: Env, name: string): unknown {
  const v = str(env, name);
  if (v === undefined) return undefined;
  let text = v;
  if (v.startsWith('@')) {
    try {
      text = readFileSync(v.slice(1), 'utf8');
    } catch {
      throw new ConfigError(name, `cannot read file ${v.slice(1)}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfigError(name, 'is not valid JSON');
  }
}

function parseRegistry(env: Env): RegistryBot[] {
  const raw = jsonOrFile(env, 'AGENT_BOT_REGISTRY');
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ConfigError('AGENT_BOT_REGISTRY', 'must be a JSON array');
  return raw.map((entry: unknown, i) => {
    const e = entry as Partial<RegistryBot> | null;
    const at = `entry ${i}`;
    if (!e || typeof e.botId !== 'string' || !REGISTRY_BOT_ID.test(e.botId))
      throw new ConfigError('AGENT_BOT_REGISTRY', `${at}: botId must match bot_<32 hex>`);
    if (!Array.isArray(e.publicKeys) || e.publicKeys.length === 0)
      throw new ConfigError('AGENT_BOT_REGISTRY', `${at}: publicKeys must be a non-empty array`);
    const versions = new Set<number>();
    for (const k of e.publicKeys) {
      if (
        !k ||
        !Number.isInteger(k.version) ||
        k.version < 1 ||
        typeof k.publicKey !== 'string' ||
        Buffer.from(k.publicKey, 'base64url').length !== 32
      ) {
        throw new ConfigError(
          'AGENT_BOT_REGISTRY',
          `${at}: each public key needs an integer version >= 1 and a 32-byte base64url publicKey`,
        );
      }
      if (versions.has(k.version)) throw new ConfigError('AGENT_BOT_REGISTRY', `${at}: duplicate key version ${k.version}`);
      versions.add(k.version);
    }
    if (!Array.isArray(e.permissions) || !e.permissions.every((p) => typeof p === 'string')) {
      throw new ConfigError('AGENT_BOT_REGISTRY', `${at}: permissions must be an array of strings`);
    }
    return {
      botId: e.botId,
      publicKeys: e.publicKeys.map((k) => ({ version: k.version, publicKey: k.publicKey })),
      permissions: [...e.permissions],
      verified: e.verified === true,
      ...(typeof e.linkedHumanId === 'string' ? { linkedHumanId: e.linkedHumanId } : {}),
    };
  });
}

/** The login action never contains ':', so it can never be taken for a governance action (`graduate:<id>`, …). */
function loginAction(env: Env): string {
  const action = str(env, 'WORLDID_LOGIN_ACTION') ?? 'svc-login';
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(action))
    throw new ConfigError('WORLDID_LOGIN_ACTION', 'must be 1 to 100 of A-Z a-z 0-9 _ . - (no ":", which governance actions use)');
  return action;
}

function parseTrustProxy(env: Env): Config['trustProxy'] {
  const v = str(env, 'TRUST_PROXY');
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

function parseAgentbook(env: Env): Config['agentbook'] {
  const mode = str(env, 'AGENTBOOK_MODE') ?? 'static';
  if (mode !== 'static' && mode !== 'rpc') throw new ConfigError('AGENTBOOK_MODE', `expected static or rpc, got "${mode}"`);
  const staticRaw = jsonOrFile(env, 'AGENTBOOK_STATIC') ?? {};
  if (typeof staticRaw !== 'object' || staticRaw === null || Array.isArray(staticRaw)) {
    throw new ConfigError('AGENTBOOK_STATIC', 'must be a JSON object of address to humanId');
  }
  const staticMap: Record<string, string> = {};
  for (const [address, humanId] of Object.entries(staticRaw)) {
    if (typeof humanId !== 'string') throw new ConfigError('AGENTBOOK_STATIC', `value for ${address} must be a string`);
    staticMap[address.toLowerCase()] = humanId;
  }
  const rpcUrl = url(env, 'AGENTBOOK_RPC_URL', ['http:', 'https:']);
  const contract = str(env, 'AGENTBOOK_CONTRACT');
  if (mode === 'rpc' && (!rpcUrl || !contract))
    throw new ConfigError('AGENTBOOK_MODE', 'rpc needs AGENTBOOK_RPC_URL and AGENTBOOK_CONTRACT');
  if (contract !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(contract)) throw new ConfigError('AGENTBOOK_CONTRACT', 'must be a 0x address');
  const demoDir = mode === 'static' ? localDemoDataDir(env) : undefined;
  return { mode, staticMap, rpcUrl, contract, localFile: demoDir === undefined ? undefined : join(demoDir, LOCAL_AGENTBOOK_FILE) };
}

/** The local AgentBook's file name in the data directory of the local demo. */
export const LOCAL_AGENTBOOK_FILE = 'local-agentbook.json';

/**
 * The data directory of the local demo, or undefined when this is no local demo. The local demo is `npm start` as
 * it comes: the embedded database (no DATABASE_URL) in a directory (not `memory://`), outside production and a
 * public deployment. Only there does the service keep its own signing secret and operations token in that
 * directory (src/local-demo.ts) and offer a local AgentBook.
 */
export function localDemoDataDir(env: Env): string | undefined {
  const nodeEnv = str(env, 'NODE_ENV') ?? 'development';
  if (env.DATABASE_URL !== undefined || nodeEnv === 'production' || bool(env, 'PUBLIC_DEPLOYMENT', false)) return undefined;
  const dataDir = str(env, 'DATA_DIR') ?? './data';
  return dataDir.startsWith('memory://') ? undefined : dataDir;
}

/** The webhook variables. */
function parseWebhooks(env: Env, failClosed: boolean): Config['webhooks'] {
  // the old name must not be silently ignored by a deployment that still sets it
  if (str(env, 'WEBHOOK_ALLOW_LOOPBACK_FOR_TESTS') !== undefined)
    throw new ConfigError('WEBHOOK_ALLOW_LOOPBACK_FOR_TESTS', 'was renamed WEBHOOK_ALLOW_PRIVATE_ADDRESSES (docs/webhooks.md)');
  const allowPrivateAddresses = bool(env, 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES', false);
  if (allowPrivateAddresses && failClosed)
    throw new ConfigError('WEBHOOK_ALLOW_PRIVATE_ADDRESSES', 'is refused in production and public deployments');
  const hostAllowlist = list(env, 'WEBHOOK_HOST_ALLOWLIST').map((h) => h.toLowerCase());
  const endpoints = list(env, 'WEBHOOK_ENDPOINTS');
  for (const endpoint of endpoints) {
    let parsed: URL;
    try {
      parsed = new URL(endpoint);
    } catch {
      throw new ConfigError('WEBHOOK_ENDPOINTS', `"${endpoint}" is not a URL`);
    }
    if (parsed.protocol !== 'https:') throw new ConfigError('WEBHOOK_ENDPOINTS', `"${endpoint}" must use https`);
    if (parsed.username || parsed.password) throw new ConfigError('WEBHOOK_ENDPOINTS', `"${parsed.host}" must not carry credentials`);
    if (hostAllowlist.length && !hostAllowlist.includes(parsed.hostname))
      throw new ConfigError('WEBHOOK_ENDPOINTS', `host ${parsed.hostname} is not in WEBHOOK_HOST_ALLOWLIST`);
  }
  const signingSecret = str(env, 'WEBHOOK_SIGNING_SECRET');
  if (endpoints.length && !signingSecret) throw new ConfigError('WEBHOOK_SIGNING_SECRET', 'is required when WEBHOOK_ENDPOINTS is set');
  const worker = str(env, 'WEBHOOK_WORKER') ?? 'in-process';
  if (worker !== 'in-process' && worker !== 'off') throw new ConfigError('WEBHOOK_WORKER', `expected in-process or off, got "${worker}"`);
  const timeoutMs = int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000);
  const retryBaseMs = int(env, 'WEBHOOK_RETRY_BASE_MS', 10_000, 10, 3_600_000);
  const retryCapMs = int(env, 'WEBHOOK_RETRY_CAP_MS', 3_600_000, 10, 86_400_000);
  if (retryCapMs < retryBaseMs) throw new ConfigError('WEBHOOK_RETRY_CAP_MS', 'must not be below WEBHOOK_RETRY_BASE_MS');
  return {
    endpoints,
    hostAllowlist,
    signingSecret,
    allowPrivateAddresses,
    worker,
    timeoutMs,
    retryBaseMs,
    retryCapMs,
    maxAgeMs: int(env, 'WEBHOOK_MAX_AGE_MS', 86_400_000, 1_000, 30 * 86_400_000),
    concurrency: int(env, 'WEBHOOK_CONCURRENCY', 4, 1, 64),
    pollMs: int(env, 'WEBHOOK_POLL_MS', 1_000, 10, 60_000),
    retentionDays: int(env, 'WEBHOOK_RETENTION_DAYS', 30, 1, 3_650),
  };
}

/** Limits and timeouts of the HTTP server (Node's http options, set explicitly). */
function parseHttp(env: Env): Config['http'] {
  const headersTimeoutMs = int(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const requestTimeoutMs = int(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  if (requestTimeoutMs < headersTimeoutMs) throw new ConfigError('HTTP_REQUEST_TIMEOUT_MS', 'must not be below HTTP_HEADERS_TIMEOUT_MS');
  const maxHeaderBytes = int(env, 'HTTP_MAX_HEADER_BYTES', 16_384, 1_024, 1_048_576);
  const maxUrlBytes = int(env, 'HTTP_MAX_URL_BYTES', 8_192, 256, 1_048_576);
  if (maxUrlBytes >= maxHeaderBytes)
    throw new ConfigError('HTTP_MAX_URL_BYTES', 'must be below HTTP_MAX_HEADER_BYTES (the request line counts in it)');
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
    connectionsCheckingIntervalMs: int(env, 'HTTP_CONNECTIONS_CHECK_MS', 1_000, 10, 60_000),
    maxHeaderBytes,
    maxUrlBytes,
    bodyLimitBytes: int(env, 'HTTP_BODY_LIMIT_BYTES', 1_048_576, 1_024, 104_857_600),
  };
}

/** Parses and validates the environment. Throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = str(env, 'NODE_ENV') ?? 'development';
  const publicDeployment = bool(env, 'PUBLIC_DEPLOYMENT', false);
  const failClosed = nodeEnv === 'production' || publicDeployment;
  const port = int(env, 'PORT', 8080, 0, 65535);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const redis = parseRedis(env);
  const nonceStoreDriver = driver(env, 'NONCE_STORE_DRIVER');
  const rateLimitStoreDriver = driver(env, 'RATE_LIMIT_STORE_DRIVER');
  if ((nonceStoreDriver === 'redis' || rateLimitStoreDriver === 'redis') && !redis) {
    throw new ConfigError('REDIS_URL', 'is required when a store driver is redis (or REDIS_SENTINELS, or REDIS_CLUSTER_NODES)');
  }
  if (failClosed) {
    const why = nodeEnv === 'production' ? 'NODE_ENV=production' : 'PUBLIC_DEPLOYMENT=1';
    if (nonceStoreDriver !== 'redis') throw new ConfigError('NONCE_STORE_DRIVER', `must be redis when ${why}`);
    if (rateLimitStoreDriver !== 'redis') throw new ConfigError('RATE_LIMIT_STORE_DRIVER', `must be redis when ${why}`);
    if (!redis) throw new ConfigError('REDIS_URL', `is required when ${why} (or REDIS_SENTINELS, or REDIS_CLUSTER_NODES)`);
  }
  const allowUnauthenticatedOperations = bool(env, 'ALLOW_UNAUTHENTICATED_OPERATIONS', false);
  if (allowUnauthenticatedOperations && failClosed) {
    throw new ConfigError('ALLOW_UNAUTHENTICATED_OPERATIONS', 'is forbidden when NODE_ENV=production or PUBLIC_DEPLOYMENT=1');
  }
  const humanProofVerifierRaw = str(env, 'HUMAN_PROOF_VERIFIER') ?? (failClosed ? 'remote' : 'dev');
  if (humanProofVerifierRaw !== 'dev' && humanProofVerifierRaw !== 'remote') {
    throw new ConfigError('HUMAN_PROOF_VERIFIER', `expected dev or remote, got "${humanProofVerifierRaw}"`);
  }
  // the dev proof's key is public: a deployment that accepts it accepts forged proofs
  if (humanProofVerifierRaw === 'dev' && failClosed) {
    const why = nodeEnv === 'production' ? 'NODE_ENV=production' : 'PUBLIC_DEPLOYMENT=1';
    throw new ConfigError('HUMAN_PROOF_VERIFIER', `dev is refused when ${why}: its proofs can be made by anyone`);
  }
  const webhooks = parseWebhooks(env, failClosed);
  const humanSigningSecret = str(env, 'HUMAN_SIGNING_SECRET');
  const sessionSecret = str(env, 'SESSION_SECRET');
  if (sessionSecret !== undefined && sessionSecret.length < 32) throw new ConfigError('SESSION_SECRET', 'must be 32 characters or more');
  const previousSecret = str(env, 'HUMAN_SIGNING_SECRET_PREVIOUS');
  if (previousSecret && !str(env, 'HUMAN_SIGNING_SECRET'))
    throw new ConfigError('HUMAN_SIGNING_SECRET_PREVIOUS', 'needs HUMAN_SIGNING_SECRET');
  const publicBaseUrl = (url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://${host}:${port}`).replace(/\/$/, '');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const migrationDatabaseUrl = url(env, 'MIGRATION_DATABASE_URL', ['postgres:', 'postgresql:']);
  if (migrationDatabaseUrl && !databaseUrl)
    throw new ConfigError('MIGRATION_DATABASE_URL', 'needs DATABASE_URL (the embedded database has a single role)');
  const databaseReadUrl = url(env, 'DATABASE_READ_URL', ['postgres:', 'postgresql:']);
  if (databaseReadUrl && !databaseUrl)
    throw new ConfigError('DATABASE_READ_URL', 'needs DATABASE_URL (the embedded database has no replica)');
  const controlPlaneApprovalMin = int(env, 'CONTROL_PLANE_APPROVAL_MIN', 2, 1, 100);

  const config: Config = {
    port,
    host,
    nodeEnv,
    publicDeployment,
    failClosed,
    databaseUrl,
    migrationDatabaseUrl,
    databaseReadUrl,
    databaseReadMaxLagMs: int(env, 'DATABASE_READ_MAX_LAG_MS', 5_000, 100, 3_600_000),
    dataDir: str(env, 'DATA_DIR') ?? './data',
    databasePoolMax: int(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
    databasePreparedStatements: bool(env, 'DATABASE_PREPARED_STATEMENTS', true),
    redis,
    redisKeyPrefix: str(env, 'REDIS_KEY_PREFIX') ?? 'svc:',
    nonceStoreDriver,
    rateLimitStoreDriver,
    humanSigningSecrets: [humanSigningSecret, previousSecret].filter((s): s is string => Boolean(s)),
    sessionSecret,
    cursorSigningSecret: str(env, 'CURSOR_SIGNING_SECRET'),
    signatureMaxSkewMs: int(env, 'SIGNATURE_MAX_SKEW_MS', 300_000, 1_000, 3_600_000),
    agentSignedWriteAud: str(env, 'AGENT_SIGNED_WRITE_AUD') ?? 'svc',
    agentBotRegistry: parseRegistry(env),
    agentSelfServeJoin: bool(env, 'AGENT_SELF_SERVE_JOIN', true),
    agentRequireVerified: bool(env, 'AGENT_REQUIRE_VERIFIED', false),
    publicApiKeys: list(env, 'PUBLIC_API_KEYS'),
    operationsToken: str(env, 'API_OPERATIONS_TOKEN'),
    allowUnauthenticatedOperations,
    apiOrigins: list(env, 'API_ORIGIN'),
    publicBaseUrl,
    worldAgentkitResourceOrigins: list(env, 'WORLD_AGENTKIT_RESOURCE_ORIGINS').length
      ? list(env, 'WORLD_AGENTKIT_RESOURCE_ORIGINS').map((o) => o.replace(/\/$/, ''))
      : [publicBaseUrl],
    contentAdminIds: list(env, 'CONTENT_ADMIN_IDS'),
    rewardsAdminIds: list(env, 'REWARDS_ADMIN_IDS'),
    controlPlane: {
      approverLinkedHumanIds: list(env, 'CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS'),
      approvalMin: controlPlaneApprovalMin,
      enforceRequesterCannotApprove: bool(env, 'CONTROL_PLANE_ENFORCE_REQUESTER_CANNOT_APPROVE', true),
      explicitEnabled: bool(env, 'FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED', false),
    },
    worldIdLoginAction: loginAction(env),
    worldIdSessionTtlSeconds: int(env, 'WORLDID_SESSION_TTL_SECONDS', 604_800, 60, 7_776_000),
    humanProofVerifier: humanProofVerifierRaw,
    worldIdAppId: str(env, 'WORLDID_APP_ID'),
    worldIdVerifyUrl: url(env, 'WORLDID_VERIFY_URL', ['http:', 'https:']),
    humanProofVerifyUrls: {
      passport: url(env, 'HUMAN_PROOF_PASSPORT_VERIFY_URL', ['http:', 'https:']),
      phone: url(env, 'HUMAN_PROOF_PHONE_VERIFY_URL', ['http:', 'https:']),
    },
    humanProofVerifyTimeoutMs: int(env, 'HUMAN_PROOF_VERIFY_TIMEOUT_MS', 5_000, 100, 60_000),
    webhooks,
    rewardTokenDecimals: int(env, 'REWARD_TOKEN_DECIMALS', 18, 0, 36),
    claimsEnabled: bool(env, 'CLAIMS_ENABLED', false),
    chainRpcUrl: url(env, 'CHAIN_RPC_URL', ['http:', 'https:']),
    claimDistributorAddress: str(env, 'CLAIM_DISTRIBUTOR_ADDRESS'),
    claimMinConfirmations: int(env, 'CLAIM_MIN_CONFIRMATIONS', 12, 0, 10_000),
    // rewards
    rewards: {
      dailyPaidActions: {
        L3: int(env, 'REWARDS_DAILY_PAID_ACTIONS_L3', 50, 0, 100_000),
        L2: int(env, 'REWARDS_DAILY_PAID_ACTIONS_L2', 20, 0, 100_000),
        L0: int(env, 'REWARDS_DAILY_PAID_ACTIONS_L0', 5, 0, 100_000),
      },
      reviewDueHours: int(env, 'REWARDS_REVIEW_DUE_HOURS', 72, 1, 8760),
      secondApprovalAboveOrbs: orbs(env, 'SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS', '1000'),
    },
    agentbook: parseAgentbook(env),
    trustProxy: parseTrustProxy(env),
    logLevel: str(env, 'LOG_LEVEL') ?? 'info',
    agentJoinsPerMinute: int(env, 'RATE_LIMIT_AGENT_JOINS_PER_MINUTE', 10, 1),
    rateLimits: {
      unverifiedWritesPerMinute: int(env, 'RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE', 30, 1),
      verifiedWritesPerMinute: int(env, 'RATE_LIMIT_VERIFIED_WRITES_PER_MINUTE', 300, 1),
      humanWritesPerMinute: int(env, 'RATE_LIMIT_HUMAN_WRITES_PER_MINUTE', 120, 1),
      publicReadsPerMinute: int(env, 'RATE_LIMIT_PUBLIC_READS_PER_MINUTE', 600, 1),
      siteLoginsPerMinute: int(env, 'RATE_LIMIT_SITE_LOGINS_PER_MINUTE', 10, 1),
      siteFormPostsPerMinute: int(env, 'RATE_LIMIT_SITE_FORMS_PER_MINUTE', 60, 1),
    },
    readCache: {
      ttlMs: int(env, 'READ_CACHE_TTL_MS', 30_000, 0, 300_000),
      clockKnownTtlMs: int(env, 'READ_CACHE_STORY_TTL_MS', 300_000, 0, 1_800_000),
      maxBytes: int(env, 'READ_CACHE_MAX_MB', 64, 1, 4_096) * 1_048_576,
    },
    seedDemo: bool(env, 'SEED_DEMO', databaseUrl === undefined),
    http: parseHttp(env),
    shutdown: {
      readinessDelayMs: int(env, 'SHUTDOWN_READINESS_DELAY_MS', 0, 0, 300_000),
      timeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    },
  };
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(config.logLevel)) {
    throw new ConfigError('LOG_LEVEL', `unknown level "${config.logLevel}"`);
  }
  const cp = config.controlPlane;
  if (cp.explicitEnabled && cp.approverLinkedHumanIds.length < cp.approvalMin) {
    throw new ConfigError(
      'CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS',
      `lists ${cp.approverLinkedHumanIds.length} approvers; FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED=1 needs at least CONTROL_PLANE_APPROVAL_MIN (${cp.approvalMin}), or no governance change could ever be approved`,
    );
  }
  if (config.claimsEnabled && config.claimDistributorAddress && !/^0x[0-9a-fA-F]{40}$/.test(config.claimDistributorAddress)) {
    throw new ConfigError('CLAIM_DISTRIBUTOR_ADDRESS', 'must be a 0x-prefixed 20-byte address');
  }
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
