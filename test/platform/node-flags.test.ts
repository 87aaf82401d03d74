import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, test } from 'node:test';
import { missingNodeFlags, SERVICE_NODE_FLAGS } from '../../src/platform/node-flags.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { startService, type ServiceProcess } from '../helpers/service-process.js';

/**
 * The node flags the service runs with (src/platform/node-flags.ts): `npm start` passes them, and a process
 * started without them says which in its log (a process started with them says nothing).
 */

const WARNING = 'started without the node flags the service runs with';

describe('the node flags of the service process', () => {
  const started: ServiceProcess[] = [];
  let db: TestDatabase | undefined;
  after(async () => {
    await Promise.all(started.map((s) => s.stop('SIGKILL')));
    await db?.drop();
  });
  // The processes read nothing: on a server they share one migrated clone (a process starts in about a second),
  // else each opens an embedded database of its own in memory (its migrations take seconds of CPU).
  const storage = async (): Promise<Record<string, string>> => {
    if (!process.env.TEST_DATABASE_URL) return { DATA_DIR: 'memory://' };
    db ??= await createTestDatabase();
    return { DATABASE_URL: db.url! };
  };
  const start = async (nodeFlags?: readonly string[]) => {
    const service = await startService(
      { NODE_ENV: 'test', LOG_LEVEL: 'info', SEED_DEMO: '0', ...(await storage()) },
      // an embedded database migrates in the process before it answers: seconds of CPU, minutes on a busy machine
      { startTimeoutMs: 180_000, ...(nodeFlags ? { nodeFlags } : {}) },
    );
    started.push(service);
    return service;
  };

  test('npm start passes every flag to the service', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> };
    const script = pkg.scripts.start!;
    const command = script.slice(script.indexOf('node '));
    assert.match(command, /dist\/src\/server\.js$/);
    assert.deepEqual(missingNodeFlags(command.split(' ')), []);
    assert.deepEqual(missingNodeFlags([]), [...SERVICE_NODE_FLAGS]);
  });

  test('started with the flags, nothing is said', async () => {
    const service = await start();
    assert.ok(!service.output().includes(WARNING), service.output());
  });

  test('started without them, the process says which are missing', async () => {
    const service = await start([]);
    const line = service
      .output()
      .split('\n')
      .find((l) => l.includes(WARNING));
    assert.ok(line, service.output());
    assert.deepEqual((JSON.parse(line) as { missing: string[] }).missing, [...SERVICE_NODE_FLAGS]);
  });
});
