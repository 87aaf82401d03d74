import { verifySettlement } from '../src/rewards/settlements/verify.js';

/**
 * `npm run settlement:verify <settlementId>`: recomputes a settlement from its published inputs through the
 * service's API and says whether the published payouts match. Environment: SERVICE_URL (default
 * http://127.0.0.1:8080), HUMAN_SIGNING_SECRET, and the rewards admin to sign as: REWARDS_ACTOR_ID and
 * REWARDS_LINKED_HUMAN_ID (optional). Exits 1 on a mismatch, 2 on a usage or connection error.
 */
const settlementId = process.argv[2];
const secret = process.env.HUMAN_SIGNING_SECRET;
const actorId = process.env.REWARDS_ACTOR_ID;
if (!settlementId || !secret || !actorId) {
  process.stderr.write(
    'usage: HUMAN_SIGNING_SECRET=… REWARDS_ACTOR_ID=… [REWARDS_LINKED_HUMAN_ID=…] [SERVICE_URL=…] npm run settlement:verify <settlementId>\n',
  );
  process.exit(2);
}
try {
  const verdict = await verifySettlement({
    baseUrl: process.env.SERVICE_URL ?? 'http://127.0.0.1:8080',
    secret,
    actor: { actorId, linkedHumanId: process.env.REWARDS_LINKED_HUMAN_ID },
    settlementId,
  });
  if (verdict.match) {
    process.stdout.write(
      `settlement ${settlementId} verified: ${verdict.payoutsChecked} payouts and escrow ${verdict.escrowBase} match the recomputation\n`,
    );
  } else {
    process.stdout.write(`settlement ${settlementId} does NOT match:\n${verdict.mismatches.map((m) => `  ${m}`).join('\n')}\n`);
    process.exitCode = 1;
  }
} catch (err) {
  process.stderr.write(`settlement:verify failed: ${(err as Error).message}\n`);
  process.exitCode = 2;
}
