import type { Db } from '../../platform/db/database.js';

export function createCandidatesRepository(db: Db) {
  return {
    async findStatus(hash: string) {
      const row = await db
        .selectFrom('candidates as c')
        .innerJoin('stories as s', 's.id', 'c.story_id')
        .select([
          'c.hash',
          'c.story_id',
          'c.bot_id',
          'c.verified',
          'c.submitted_at',
          's.publication_stage',
          's.review_status',
          's.moderation_status',
          's.current_packet_hash',
          's.published_at',
        ])
        .select((eb) =>
          eb
            .selectFrom('safety_traces as t')
            .select('t.decision')
            .whereRef('t.story_id', '=', 'c.story_id')
            .whereRef('t.packet_hash', '=', 'c.hash')
            .orderBy('t.scanned_at', 'desc')
            .limit(1)
            .as('safety_decision'),
        )
        .where('c.hash', '=', hash)
        .executeTakeFirst();
      return row ?? null;
    },
  };
}

export type CandidatesRepository = ReturnType<typeof createCandidatesRepository>;
