import type { MoneyAction } from '../../rewards/money/second-approval.js';
import { allowlistKeyOf, consoleActor } from './access.js';
import { must, type ConsoleServices, type ConsoleVisit } from './gate.js';
import type { OpenMoneyRequests } from './views/money-requests.js';

/**
 * The money requests of one action that wait for a second rewards admin (PENDING) or for their payout (EXECUTED),
 * with their approvals, the people who filed and approved them by display name, and the ones waiting for this
 * person's approval: what the settlements page (settlement runs) and the claims page (batch finalizes) list.
 */
export async function openMoneyRequests(
  services: Pick<ConsoleServices, 'controlPlane' | 'names'>,
  visit: ConsoleVisit,
  action: MoneyAction,
): Promise<OpenMoneyRequests> {
  const { controlPlane, names } = services;
  const of = (status: 'PENDING' | 'EXECUTED') =>
    visit.calls.read(visit.actor, () => controlPlane.list({ action, status, limit: 20 }), { admin: 'rewards' });
  const [pending, executed, waiting] = await Promise.all([
    of('PENDING'),
    of('EXECUTED'),
    controlPlane.waitingFor(consoleActor(visit.reader), action),
  ]);
  const items = [...must(pending).items, ...must(executed).items];
  const actors = await controlPlane.actorsOf(items.map((item) => item.id));
  const byActor = await names.namesOf(actors.values());
  const people: Record<string, string> = {};
  for (const [key, actorId] of actors) {
    const name = byActor.get(actorId);
    if (name) people[key] = name;
  }
  const withApprovals = await Promise.all(items.map((item) => controlPlane.get(item.id)));
  return { requests: withApprovals, people, waiting: new Set(waiting), me: allowlistKeyOf(visit.reader) };
}
