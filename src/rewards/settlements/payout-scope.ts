import { sql, type RawBuilder } from 'kysely';

/**
 * The payouts of one settlement or of one settled story: the block of seq its run reserved, recorded on the
 * settlement (0018) or on the story's settled_stories row (0019), and the key itself (the blocks filled in for
 * runs older than 0019 may hold other stories' payouts). `key` is a value or an SQL reference; `alias` names
 * the payouts of the surrounding query.
 */
export function payoutsOf(scope: 'settlement' | 'story', key: unknown, alias = 'payouts'): RawBuilder<boolean> {
  const [table, keyColumn, payoutColumn] =
    scope === 'settlement' ? ['settlements', 'id', 'settlement_id'] : ['settled_stories', 'story_id', 'story_id'];
  const bound = (column: string) =>
    sql`(select ${sql.ref(`b.${column}`)} from ${sql.table(table)} b where ${sql.ref(`b.${keyColumn}`)} = ${key})`;
  return sql<boolean>`(${sql.ref(`${alias}.${payoutColumn}`)} = ${key}
    and ${sql.ref(`${alias}.seq`)} between ${bound('payout_seq_first')} and ${bound('payout_seq_last')})`;
}
