import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, LOCAL_AGENTBOOK_FILE, localDemoDataDir } from '../config.js';
import { linkedHumanIdFor, readLocalAgentBook } from '../platform/auth/agentbook.js';

/**
 * npm run agentbook:register -- <0x wallet address> [humanId]
 *
 * Registers a bot's AgentKit wallet in the local AgentBook of the local demo (DATA_DIR/local-agentbook.json), as
 * a person registering their agent in World's AgentBook would, so that the bot can verify (POST /v1/agents/verify)
 * without World App. The running service reads the file at each lookup: no restart. `humanId` defaults to a new
 * random one; a wallet registered before keeps its human unless one is given. Only in the local demo (the embedded
 * database in a directory, outside production and a public deployment, AGENTBOOK_MODE static): anywhere else it
 * refuses and writes nothing. Exit codes: 0 registered, 2 refused (usage, not the local demo).
 */
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HUMAN_ID = /^[\x21-\x7e]{1,200}$/;

async function main(argv: string[]): Promise<number> {
  const [address, humanIdArg, ...rest] = argv;
  if (!address || rest.length > 0 || !ADDRESS.test(address) || (humanIdArg !== undefined && !HUMAN_ID.test(humanIdArg))) {
    process.stderr.write(
      'usage: npm run agentbook:register -- <0x wallet address, 40 hex digits> [humanId: 1 to 200 printable characters]\n',
    );
    return 2;
  }
  let dir: string | undefined;
  try {
    dir = localDemoDataDir(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`configuration error: ${err.message}\n`);
    return 2;
  }
  if (dir === undefined || (process.env.AGENTBOOK_MODE ?? 'static').trim() === 'rpc') {
    process.stderr.write(
      'the local AgentBook exists only in the local demo (npm start with the embedded database in DATA_DIR, no DATABASE_URL, not NODE_ENV=production nor PUBLIC_DEPLOYMENT=1, AGENTBOOK_MODE static); elsewhere register the wallet in AgentBook, or map it with AGENTBOOK_STATIC (docs/operators.md)\n',
    );
    return 2;
  }
  const file = resolve(join(dir, LOCAL_AGENTBOOK_FILE));
  const book = await readLocalAgentBook(file);
  const key = address.toLowerCase();
  const humanId = humanIdArg ?? book[key] ?? `local-human-${randomBytes(12).toString('hex')}`;
  book[key] = humanId;
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(book, null, 2)}\n`);
  renameSync(partial, file);
  process.stdout.write(`${JSON.stringify({ address, humanId, linkedHumanId: linkedHumanIdFor(humanId), agentbookFile: file }, null, 2)}\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
