import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, test } from 'node:test';
import { missingNodeFlags, SERVICE_NODE_FLAGS } from '../../src/platform/node-flags.js';
import { startService, type ServiceProcess } from '../helpers/service-process.js';

/**
 * The node flags the service runs with (src/platform/node-flags.ts): `npm start` passes them, and a process
 * started without them says which in its log (a process started with them says nothing).
 */

const WARNING = 'started without the node flags the service runs with';

describe('the node flags of the service process', () => {
  const started: ServiceProcess[] = [];
  after(async () => {
    await Promise.all(started.map((s) => s.stop('SIGKILL')));
  });
  const start = async (nodeFlags?: readonly string[]) => {
    const service = await startService(
      { NODE_ENV: 'test', LOG_LEVEL: 'info', SEED_DEMO: '0', DATA_DIR: 'memory://' },
      nodeFlags ? { nodeFlags } : {},
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
