import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.js';
import { openRuntimeDatabase } from '../../platform/db/database.js';
import type { DeliveryStatus } from '../rows.js';
import { attemptsOf, deliveryCounts, deliveryLog, enableEndpoint } from './repository.js';

/**
 * `npm run webhooks:deliveries [-- --status PENDING|DELIVERED|DEAD] [--event <id>] [--limit N] [--json]
 * [--enable-endpoint <url>]`: the delivery log for operators (counts, then each delivery newest first with
 * its attempts), read from DATABASE_URL. `--enable-endpoint` lets an endpoint that answered 410 receive new
 * events again.
 */
/** Operator output goes to stdout (the lint keeps console for warnings and errors). */
const print = (line: string) => void process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      status: { type: 'string' },
      event: { type: 'string' },
      limit: { type: 'string', default: '50' },
      json: { type: 'boolean', default: false },
      'enable-endpoint': { type: 'string' },
    },
  });
  const config = loadConfig();
  const database = await openRuntimeDatabase(config, 2);
  try {
    if (values['enable-endpoint']) {
      const enabled = await enableEndpoint(database.db, values['enable-endpoint']);
      print(enabled ? `enabled ${values['enable-endpoint']}` : `${values['enable-endpoint']} was not disabled`);
      return;
    }
    const status = values.status?.toUpperCase();
    if (status && !['PENDING', 'DELIVERED', 'DEAD'].includes(status)) throw new Error('--status must be PENDING, DELIVERED or DEAD');
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new Error('--limit must be an integer from 1 to 10000');
    const rows = await deliveryLog(database.db, { status: status as DeliveryStatus | undefined, eventId: values.event, limit });
    const attempts = await attemptsOf(
      database.db,
      rows.map((r) => r.id),
    );
    const deliveries = rows.map((r) => ({ ...r, attempts: attempts.filter((a) => a.delivery_id === r.id) }));
    const counts = await deliveryCounts(database.db);
    if (values.json) {
      print(JSON.stringify({ counts, deliveries }, null, 2));
      return;
    }
    print(`pending ${counts.pending}  failed ${counts.failed}  delivered ${counts.delivered}  dead ${counts.dead}`);
    for (const d of deliveries) {
      print(
        `${d.id} ${d.status} ${d.type} event=${d.event_id} story=${d.story_id} ${d.endpoint} attempts=${d.attempts}` +
          (d.status === 'PENDING' ? ` next=${d.next_attempt_at.toISOString()}` : '') +
          (d.last_error ? ` last="${d.last_error}"` : ''),
      );
      for (const a of d.attempts)
        print(`  #${a.attempt} ${a.started_at.toISOString()} ${a.outcome} ${a.status_code ?? '-'} ${a.error ?? ''} (${a.worker})`);
    }
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
