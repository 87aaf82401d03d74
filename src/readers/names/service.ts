import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { isUniqueViolation, type Db } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { ReadGeneration } from '../../platform/read-generation.js';
import { NAME_RULES, nameKey, nameProblem, storedName, type NameRule } from './policy.js';
import * as repository from './repository.js';
import type { NameHistory, MyName } from './schemas.js';

/** PostgreSQL's check_violation: a name the database's own rules refuse (its Unicode tables may be older than ours). */
const isCheckViolation = (err: unknown) => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23514';

/** Past names a moderator sees at most, most recent first. */
const HISTORY_LIMIT = 100;

/** 400 VALIDATION_FAILED naming the rule: its sentence, and its code in the detail (the site words it). */
const refusedName = (rule: NameRule) =>
  validationFailed([{ path: '/name', code: rule, message: NAME_RULES[rule] }], `The name is refused: ${NAME_RULES[rule]}`);

/**
 * Display names: the name a person shows on the pages instead of an id, one per actor, unique without case.
 * A change keeps the name given up in a history that only moderators
 * read. Names appear in public reads (comment authors, profiles), so a change moves the public read cache on.
 */
export function createNamesService(deps: {
  db: Db<ReadersTables>;
  transactor: Transactor<ReadersTables>;
  clock: Clock;
  readGeneration: Pick<ReadGeneration, 'bump'>;
}) {
  const { db, transactor, clock, readGeneration } = deps;
  const present = (actorId: string, row: repository.NameRow | null): MyName => ({
    actorId,
    name: row?.name ?? null,
    chosenAt: row ? row.chosen_at.toISOString() : null,
  });

  return {
    /** The signed actor's name, or null. */
    async myName(actor: HumanActor): Promise<MyName> {
      const [row] = await repository.namesOf(db, [actor.actorId]);
      return present(actor.actorId, row ?? null);
    },

    /**
     * Gives the signed actor `name` (their first, or a change): 400 VALIDATION_FAILED with the rule it breaks,
     * 409 NAME_TAKEN when another person holds it (any case). The same name again changes nothing.
     */
    async setName(actor: HumanActor, raw: string): Promise<MyName & { changed: boolean }> {
      const problem = nameProblem(raw);
      if (problem) throw refusedName(problem);
      const name = storedName(raw);
      const at = new Date(clock.now());
      const outcome = await withTransaction(transactor, async (tx) => {
        const current = await repository.lockName(tx, actor.actorId);
        if (current?.name === name) return { row: current, changed: false };
        const row = await repository.upsertName(tx, { actorId: actor.actorId, name, nameKey: nameKey(name), at });
        if (current) {
          await repository.recordGivenUp(tx, {
            id: newId('dn'),
            actorId: actor.actorId,
            name: current.name,
            chosenAt: current.chosen_at,
            replacedAt: at < current.chosen_at ? current.chosen_at : at,
          });
        }
        return { row, changed: true };
      }).catch((err: unknown) => {
        if (isUniqueViolation(err)) throw appError('NAME_TAKEN');
        if (isCheckViolation(err)) throw refusedName('NAME_CHARACTERS');
        throw err;
      });
      // the name shows on public pages and reads (comments, profiles): cached copies move on
      if (outcome.changed) await readGeneration.bump().catch(() => undefined);
      return { ...present(actor.actorId, outcome.row), changed: outcome.changed };
    },

    /** The names of these actors, for the public reads that show who wrote what (an actor without one is absent). */
    async namesOf(actorIds: Iterable<string>): Promise<Map<string, string>> {
      const rows = await repository.namesOf(db, [...actorIds]);
      return new Map(rows.map((r) => [r.actor_id, r.name]));
    },

    /** Who holds `name` now (any case), with when they first chose a name; null when nobody does. */
    async holderOf(name: string): Promise<{ actorId: string; name: string; since: string } | null> {
      if (nameProblem(name)) return null;
      const row = await repository.findByKey(db, nameKey(storedName(name)));
      return row ? { actorId: row.actor_id, name: row.name, since: row.created_at.toISOString() } : null;
    },

    /** A person's name now and every name they gave up, for moderators (the route checks the content admin). */
    async history(actorId: string): Promise<NameHistory> {
      const [[current], past] = await Promise.all([repository.namesOf(db, [actorId]), repository.givenUp(db, actorId, HISTORY_LIMIT)]);
      return {
        ...present(actorId, current ?? null),
        past: past.map((p) => ({ name: p.name, chosenAt: p.chosen_at.toISOString(), replacedAt: p.replaced_at.toISOString() })),
      };
    },
  };
}

export type NamesService = ReturnType<typeof createNamesService>;
