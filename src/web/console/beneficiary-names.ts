import type { ConsoleServices } from './gate.js';

/** A payout's beneficiary: a bot by its id, or a person by their linked human id. */
export interface Beneficiary {
  beneficiaryKind: 'BOT' | 'HUMAN';
  beneficiaryId: string;
}

/**
 * The names the console shows for beneficiaries: a bot's name, a person's display name (of the most recently
 * bound of their accounts that has one). One query each; a beneficiary without a name is absent (the page then
 * says "a bot" or "a person" and keeps the id in the title).
 */
export async function beneficiaryNames(services: Pick<ConsoleServices, 'bots' | 'humans' | 'names'>, list: readonly Beneficiary[]) {
  const bots = list.filter((b) => b.beneficiaryKind === 'BOT').map((b) => b.beneficiaryId);
  const humans = list.filter((b) => b.beneficiaryKind === 'HUMAN').map((b) => b.beneficiaryId);
  const [botNames, actors] = await Promise.all([services.bots.names(bots), services.humans.actorsOf(humans)]);
  const people = await services.names.namesOf([...actors.values()].flat());
  const named = new Map<string, string>();
  for (const [id, name] of botNames) named.set(`BOT:${id}`, name);
  for (const [human, actorIds] of actors) {
    const name = actorIds.map((a) => people.get(a)).find((n) => n !== undefined);
    if (name) named.set(`HUMAN:${human}`, name);
  }
  return named;
}
