import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, LOCAL_AGENTBOOK_FILE, localDemoDataDir } from './config.js';
import { devLinkedHumanId } from './web/site/dev-proof.js';

type Env = Record<string, string | undefined>;

/** The secrets file's name in the data directory of the local demo. */
export const LOCAL_SECRETS_FILE = 'local-secrets.json';

/** What the local demo keeps in DATA_DIR/local-secrets.json (mode 0600): made on the first start, kept after. */
interface LocalSecrets {
  humanSigningSecret: string;
  operationsToken: string;
}

export interface LocalDemo {
  /** The environment to load the configuration from: the given one, with the secrets it does not set. */
  env: Env;
  /** Absolute paths of the secrets file and the local AgentBook. */
  secretsFile: string;
  agentbookFile: string;
  /** Whether this start made the secrets file. */
  created: boolean;
  /** The variables the file supplies (those the environment left unset). */
  supplies: ('HUMAN_SIGNING_SECRET' | 'API_OPERATIONS_TOKEN')[];
  /** Whether the console's allowlists are the demo's admins (none was set, and the development login is on). */
  demoAdmins: boolean;
}

/**
 * The demo's admins: development-login names whose keys fill the console's three allowlists when the environment
 * sets none of them, so that someone trying `npm start` reaches every console area from the browser. Three content
 * admins who approve (a control-plane request needs two approvers besides the one who files it) and two rewards
 * admins (money above the threshold needs a second one).
 */
export const DEMO_ADMINS = {
  CONTENT_ADMIN_IDS: ['editor', 'approver', 'checker'],
  CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: ['editor', 'approver', 'checker'],
  REWARDS_ADMIN_IDS: ['treasurer', 'controller'],
} as const;

const SECRET = /^[A-Za-z0-9_-]{32,200}$/;

function readSecrets(file: string): LocalSecrets | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError('DATA_DIR', `cannot read ${file}: ${(err as Error).message}`);
  }
  let parsed: Partial<LocalSecrets>;
  try {
    parsed = JSON.parse(text) as Partial<LocalSecrets>;
  } catch {
    throw new ConfigError('DATA_DIR', `${file} is not JSON: remove it to make new local secrets`);
  }
  const { humanSigningSecret, operationsToken } = parsed;
  if (
    typeof humanSigningSecret !== 'string' ||
    !SECRET.test(humanSigningSecret) ||
    typeof operationsToken !== 'string' ||
    !SECRET.test(operationsToken)
  )
    throw new ConfigError('DATA_DIR', `${file} lacks humanSigningSecret or operationsToken: remove it to make new local secrets`);
  return { humanSigningSecret, operationsToken };
}

/**
 * The local demo's own secrets (config.ts, `localDemoDataDir`): `npm start` with nothing configured keeps one human
 * signing secret and one operations token per data directory, in DATA_DIR/local-secrets.json (mode 0600, made on
 * the first start), so that a front end, a script or the publish step can use them across restarts. A variable set
 * in the environment wins over the file. Anywhere else (a database server, production, a public deployment, an
 * in-memory database) nothing is read or written: undefined.
 */
export function prepareLocalDemo(env: Env): LocalDemo | undefined {
  const dir = localDemoDataDir(env);
  if (dir === undefined) return undefined;
  const secretsFile = resolve(join(dir, LOCAL_SECRETS_FILE));
  let secrets = readSecrets(secretsFile);
  const created = secrets === undefined;
  try {
    if (!secrets) {
      mkdirSync(dir, { recursive: true });
      secrets = { humanSigningSecret: randomBytes(32).toString('base64url'), operationsToken: randomBytes(32).toString('base64url') };
      // written whole under another name, then renamed: a start never reads half a file
      const partial = `${secretsFile}.${process.pid}.tmp`;
      writeFileSync(partial, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      renameSync(partial, secretsFile);
    }
    chmodSync(secretsFile, 0o600);
  } catch (err) {
    throw new ConfigError('DATA_DIR', `cannot keep the local secrets in ${secretsFile}: ${(err as Error).message}`);
  }
  const supplies: LocalDemo['supplies'] = [];
  const additions: Env = {};
  if (env.HUMAN_SIGNING_SECRET === undefined) {
    additions.HUMAN_SIGNING_SECRET = secrets.humanSigningSecret;
    supplies.push('HUMAN_SIGNING_SECRET');
  }
  if (env.API_OPERATIONS_TOKEN === undefined) {
    additions.API_OPERATIONS_TOKEN = secrets.operationsToken;
    supplies.push('API_OPERATIONS_TOKEN');
  }
  // only with the development login, where a name already is whoever types it; never beside an allowlist of one's own
  const allowlists = Object.keys(DEMO_ADMINS) as (keyof typeof DEMO_ADMINS)[];
  const demoAdmins = (env.HUMAN_PROOF_VERIFIER ?? 'dev') === 'dev' && allowlists.every((name) => env[name] === undefined);
  if (demoAdmins) {
    const loginAction = env.WORLDID_LOGIN_ACTION ?? 'svc-login';
    for (const name of allowlists) additions[name] = DEMO_ADMINS[name].map((person) => devLinkedHumanId(person, loginAction)).join(',');
  }
  return {
    env: { ...env, ...additions },
    secretsFile,
    agentbookFile: resolve(join(dir, LOCAL_AGENTBOOK_FILE)),
    created,
    supplies,
    demoAdmins,
  };
}
