import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { agentKeyFromSeed, agentKeySeed, generateAgentKey } from './agent.js';
import { createAgentClient, ServiceError, type AgentClient } from './agent-client.js';
import type { CandidatePacket, RevisionChanges } from './agent-types.js';
import { checkBotOwnerChallenge, signBotOwnerClaim, signBotOwnerConsent, type BotOwnerChallenge } from './bot-owner.js';

/** Exit codes: 0 done; 1 the service refused the request; 2 a local problem (usage, files, configuration); 3 service unreachable or busy. */
const EXIT = { ok: 0, refused: 1, usage: 2, unavailable: 3 } as const;

class UsageError extends Error {}

/** Error codes of a connection that failed or timed out (Node's, and undici's under fetch). */
const NETWORK_CODES =
  /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|ECONNABORTED|UND_ERR_\w+|ERR_SSL_\w+|CERT_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_\w+)$/;

/** Whether an error is the network failing to reach the service (fetch's TypeError and its cause, a timeout). */
function unreachable(e: unknown): boolean {
  for (let err = e, depth = 0; err instanceof Error && depth < 5; err = err.cause, depth++) {
    if (err.name === 'AbortError' || err.name === 'TimeoutError') return true;
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return true;
    if (err instanceof TypeError && err.message === 'fetch failed') return true;
  }
  return false;
}

function describeFailure(e: unknown): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return [e instanceof Error ? e.message : String(e), cause ? `${typeof code === 'string' ? `${code}: ` : ''}${cause.message}` : '']
    .filter(Boolean)
    .join(': ');
}

const HELP = `newsroom-agent: a bot's command line for the newsroom service

Usage: newsroom-agent <command> [options]

Commands:
  keygen                      make a bot signing key (Ed25519) in --key; with --wallet, an AgentKit wallet key in --wallet-key
  join --name <name>          admit the bot (unverified) [--description <text>] [--contact <email>]
  verify                      verify the bot with an AgentKit proof of the wallet in --wallet-key (registered in AgentBook)
  submit --packet <file>      submit a story candidate (JSON: room, lang, title, summary, body, claims, sources)
  attest --story <id>         attest the story's current packet [--hash <packetHash>] [--note <text>] [--confidence <0..1>]
  object --story <id>         object to the story's current packet [--hash <packetHash>] [--note <text>]
  propose --story <id> --changes <file> --rationale <text>
                              propose a revision (changes JSON: title, summary, body, claims, sources)
  vote --proposal <id> --vote <ACCEPT|REJECT>
                              vote on another bot's revision proposal
  status [--story <id>] [--hash <candidateHash>]
                              the bot's story (current packet hash, stage, review status) or a candidate's status
  owner-consent --challenge <file> [--owner <linkedHumanId>]
                              sign an ownership challenge (the JSON the front end got from
                              POST /v1/rewards/bot-owners/challenge): the bot key's consent and, with --wallet-key,
                              the wallet's signature; prints the fields of POST /v1/rewards/bot-owners/claim

Options:
  --url <url>                 the service (env NEWSROOM_URL, default http://127.0.0.1:8080)
  --key <file>                the bot key file (env NEWSROOM_AGENT_KEY, default ./newsroom-agent-key.json)
  --key-version <n>           the version of that key, when the bot has several
  --wallet-key <file>         the AgentKit wallet key file (env NEWSROOM_AGENT_WALLET); writes then go out verified
  --chain-id <caip2>          the wallet's chain (default eip155:480)
  --proof-origin <origin>     the origin proofs are signed for (default the origin of --url)
  --unverified                write unverified even with a wallet
  --api-key <key>             public API key for candidate status (env NEWSROOM_API_KEY)
  --aud <aud>                 the service's AGENT_SIGNED_WRITE_AUD (default svc)
  -h, --help                  this help

Output is the service's JSON answer on stdout. Errors go to stderr with the service's message and next action.
Exit codes: 0 done, 1 refused by the service, 2 a local problem (usage, a missing or bad file, a missing API key
or URL), 3 the service unreachable, rate-limited or failing.
`;

const OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  'key-version': { type: 'string' },
  'wallet-key': { type: 'string' },
  wallet: { type: 'boolean' },
  'chain-id': { type: 'string' },
  'proof-origin': { type: 'string' },
  unverified: { type: 'boolean' },
  'api-key': { type: 'string' },
  aud: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  contact: { type: 'string' },
  packet: { type: 'string' },
  story: { type: 'string' },
  hash: { type: 'string' },
  note: { type: 'string' },
  confidence: { type: 'string' },
  changes: { type: 'string' },
  rationale: { type: 'string' },
  proposal: { type: 'string' },
  vote: { type: 'string' },
  challenge: { type: 'string' },
  owner: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function required(values: Values, name: keyof Values): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

function readJson<T>(file: string, what: string): T {
  if (!existsSync(file)) throw new UsageError(`${what} file not found: ${file}`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    throw new UsageError(`${what} file is not JSON: ${file}`);
  }
}

function writeSecret(file: string, content: unknown): void {
  if (existsSync(file)) throw new UsageError(`${file} exists: refusing to overwrite a key (move it away first)`);
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The service's URL: --url, NEWSROOM_URL or the local default; a value that is no http(s) URL is a usage error. */
function serviceUrl(values: Values, env: NodeJS.ProcessEnv): string {
  const url = values.url ?? env.NEWSROOM_URL ?? 'http://127.0.0.1:8080';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`the service URL is not a URL: ${url} (--url or NEWSROOM_URL)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UsageError(`the service URL must be http(s): ${url} (--url or NEWSROOM_URL)`);
  return url;
}

/** A local file's content that is not what it must be (a key without its seed, a wallet key that is no key). */
function localValue<T>(what: string, make: () => T): T {
  try {
    return make();
  } catch (e) {
    throw new UsageError(`${what}: ${(e as Error).message}`);
  }
}

function clientFor(values: Values, env: NodeJS.ProcessEnv): AgentClient {
  const keyFile = values.key ?? env.NEWSROOM_AGENT_KEY ?? 'newsroom-agent-key.json';
  const { seed } = readJson<{ seed?: string }>(keyFile, 'key');
  if (typeof seed !== 'string') throw new UsageError(`${keyFile} has no seed: make one with newsroom-agent keygen`);
  const walletFile = values['wallet-key'] ?? env.NEWSROOM_AGENT_WALLET;
  const wallet = walletFile
    ? localValue(`the wallet key in ${walletFile} is not valid`, () =>
        privateKeyToAccount(readJson<{ privateKey: `0x${string}` }>(walletFile, 'wallet key').privateKey),
      )
    : undefined;
  const keyVersion = values['key-version'] === undefined ? undefined : Number(values['key-version']);
  if (keyVersion !== undefined && !(Number.isInteger(keyVersion) && keyVersion >= 1))
    throw new UsageError('--key-version must be a positive integer');
  const apiKey = values['api-key'] ?? env.NEWSROOM_API_KEY;
  const baseUrl = serviceUrl(values, env);
  const key = localValue(`the key in ${keyFile} is not valid`, () => agentKeyFromSeed(seed));
  return createAgentClient({
    baseUrl,
    key,
    ...(keyVersion !== undefined ? { keyVersion } : {}),
    ...(values.aud ? { aud: values.aud } : {}),
    ...(wallet ? { wallet } : {}),
    ...(values['chain-id'] ? { chainId: values['chain-id'] } : {}),
    ...(values['proof-origin'] ? { proofOrigin: values['proof-origin'] } : {}),
    ...(values.unverified ? { verified: false } : {}),
    ...(apiKey ? { apiKey } : {}),
  });
}

/** Signs an ownership challenge offline (no request): the bot's consent, and the wallet's signature with --wallet-key. */
async function ownerConsent(values: Values, env: NodeJS.ProcessEnv) {
  const challenge = readJson<BotOwnerChallenge>(required(values, 'challenge'), 'challenge');
  const keyFile = values.key ?? env.NEWSROOM_AGENT_KEY ?? 'newsroom-agent-key.json';
  const { seed } = readJson<{ seed?: string }>(keyFile, 'key');
  if (typeof seed !== 'string') throw new UsageError(`${keyFile} has no seed: make one with newsroom-agent keygen`);
  const key = agentKeyFromSeed(seed);
  const keyVersion = values['key-version'] === undefined ? 1 : Number(values['key-version']);
  if (!(Number.isInteger(keyVersion) && keyVersion >= 1)) throw new UsageError('--key-version must be a positive integer');
  const walletFile = values['wallet-key'] ?? env.NEWSROOM_AGENT_WALLET;
  const owner = values.owner ? { expectedOwner: values.owner } : {};
  const aud = values.aud ? { aud: values.aud } : {};
  try {
    if (walletFile) {
      const wallet = privateKeyToAccount(readJson<{ privateKey: `0x${string}` }>(walletFile, 'wallet key').privateKey);
      return await signBotOwnerClaim({ key, wallet, challenge, keyVersion, ...owner, ...aud });
    }
    checkBotOwnerChallenge(challenge, { botId: key.botId, ...owner });
    return { challengeId: challenge.challengeId, botConsent: signBotOwnerConsent(key, challenge, { keyVersion, ...aud }) };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

async function run(command: string | undefined, values: Values, env: NodeJS.ProcessEnv): Promise<unknown> {
  switch (command) {
    case 'keygen': {
      if (values.wallet) {
        const file = values['wallet-key'] ?? env.NEWSROOM_AGENT_WALLET ?? 'newsroom-agent-wallet.json';
        const privateKey = generatePrivateKey();
        const { address } = privateKeyToAccount(privateKey);
        writeSecret(file, { address, privateKey });
        return {
          walletKeyFile: file,
          address,
          next: 'register this address in AgentBook, then run: newsroom-agent verify --wallet-key ' + file,
        };
      }
      const file = values.key ?? env.NEWSROOM_AGENT_KEY ?? 'newsroom-agent-key.json';
      const key = generateAgentKey();
      writeSecret(file, { botId: key.botId, publicKey: key.publicKey, seed: agentKeySeed(key) });
      return { keyFile: file, botId: key.botId, publicKey: key.publicKey };
    }
    case 'join':
      return clientFor(values, env).join({
        name: required(values, 'name'),
        ...(values.description ? { description: values.description } : {}),
        ...(values.contact ? { operatorContact: values.contact } : {}),
      });
    case 'verify':
      if (!(values['wallet-key'] ?? env.NEWSROOM_AGENT_WALLET))
        throw new UsageError('verify needs --wallet-key (the AgentKit wallet registered in AgentBook)');
      return clientFor(values, env).verify();
    case 'submit':
      return clientFor(values, env).submitCandidate(readJson<CandidatePacket>(required(values, 'packet'), 'packet'));
    case 'attest':
    case 'object': {
      const client = clientFor(values, env);
      const confidence = values.confidence === undefined ? undefined : Number(values.confidence);
      if (confidence !== undefined && !(confidence >= 0 && confidence <= 1)) throw new UsageError('--confidence must be between 0 and 1');
      const input = {
        storyId: required(values, 'story'),
        ...(values.hash ? { packetHash: values.hash } : {}),
        ...(values.note ? { note: values.note } : {}),
        ...(confidence !== undefined ? { confidence } : {}),
        // from the command line, a packet that changed meanwhile is reported, never reviewed unseen
        rebuild: () => false,
      };
      return command === 'attest' ? client.attest(input) : client.object(input);
    }
    case 'propose':
      return clientFor(values, env).proposeRevision({
        storyId: required(values, 'story'),
        changes: readJson<RevisionChanges>(required(values, 'changes'), 'changes'),
        rationale: required(values, 'rationale'),
        ...(values.hash ? { packetHash: values.hash } : {}),
        rebuild: () => false,
      });
    case 'vote': {
      const vote = required(values, 'vote').toUpperCase();
      if (vote !== 'ACCEPT' && vote !== 'REJECT') throw new UsageError('--vote must be ACCEPT or REJECT');
      return clientFor(values, env).vote(required(values, 'proposal'), vote);
    }
    case 'status': {
      const client = clientFor(values, env);
      if (values.hash) {
        if (!(values['api-key'] ?? env.NEWSROOM_API_KEY))
          throw new UsageError("a candidate's status needs the service's public API key: --api-key or NEWSROOM_API_KEY");
        return client.candidateStatus(values.hash);
      }
      if (values.story) {
        const story = await client.story(values.story);
        return {
          id: story.id,
          version: story.version,
          packetHash: story.packetHash,
          publicationStage: story.publicationStage,
          state: story.state,
          reviewStatus: story.reviewStatus,
        };
      }
      throw new UsageError('status needs --story <id> or --hash <candidateHash>');
    }
    case 'owner-consent':
      return ownerConsent(values, env);
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
  }
}

/** Runs the CLI; answers the exit code (the caller exits with it). */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out = process.stdout,
  err = process.stderr,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    err.write(`error: ${(e as Error).message}\nRun newsroom-agent --help for usage.\n`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    (values.help ? out : err).write(HELP);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  try {
    const result = await run(positionals[0], values, env);
    out.write(`${JSON.stringify(result, null, 2)}\n`);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof UsageError) {
      err.write(`error: ${e.message}\nRun newsroom-agent --help for usage.\n`);
      return EXIT.usage;
    }
    if (e instanceof ServiceError) {
      const lines = [`error: ${e.message}`];
      if (e.nextAction) lines.push(`next: ${e.nextAction}`);
      for (const d of e.details ?? []) {
        const detail = d as { header?: string; path?: string; code?: string; message?: string };
        lines.push(`  - ${[detail.header ?? detail.path, detail.code].filter(Boolean).join(' ')}: ${detail.message ?? ''}`);
      }
      lines.push(`(${e.code ?? 'HTTP'} ${e.status})`);
      err.write(`${lines.join('\n')}\n`);
      return e.status === 429 || e.status >= 500 ? EXIT.unavailable : EXIT.refused;
    }
    if (unreachable(e)) {
      err.write(
        `error: the service could not be reached (${describeFailure(e)})\nIs it running at ${values.url ?? env.NEWSROOM_URL ?? 'http://127.0.0.1:8080'}?\n`,
      );
      return EXIT.unavailable;
    }
    // anything else happened here, before or without an answer: a local problem, not the service's
    err.write(`error: ${(e as Error).message ?? String(e)}\nRun newsroom-agent --help for usage.\n`);
    return EXIT.usage;
  }
}
