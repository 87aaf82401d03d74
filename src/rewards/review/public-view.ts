import type { Queryable } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import { findCases, type CaseFilters } from './repository.js';

/**
 * Review cases as public search shows them (GET /v1/search with a review-case filter): the case, its state,
 * queue view and assignee, never its target or reason. A suspicion about a named recipient or story is not
 * published before a rewards admin has decided it; admins read the full case through the review queue.
 */
export async function publicReviewCases(db: Queryable<RewardsTables>, filters: CaseFilters, now: Date, limit: number) {
  const rows = await findCases(db, filters, now, limit);
  return rows.map((c) => ({
    id: c.id,
    targetType: c.target_type,
    status: c.status,
    queue: c.queue,
    assignedToActorId: c.assigned_to_actor_id,
    createdAt: c.created_at.toISOString(),
    updatedAt: c.updated_at.toISOString(),
  }));
}
