import { t, type Lang } from '../../platform/i18n/index.js';
import type { LedgerRow } from './repository.js';
import type { LabeledLedgerEvent, LedgerEvent } from './schemas.js';

export function presentLedgerEvent(row: LedgerRow): LedgerEvent {
  return {
    id: row.id,
    storyId: row.story_id,
    title: row.title,
    type: row.type,
    createdAt: row.created_at.toISOString(),
    storyState: row.story_state,
    editorialState: row.editorial_state,
    promotionState: row.promotion_state,
    rewardWindowActive: row.reward_window_active,
    ledgerBucket: row.ledger_bucket,
  };
}

export function presentLabeledLedgerEvent(row: LedgerRow, lang: Lang): LabeledLedgerEvent {
  return {
    ...presentLedgerEvent(row),
    labels: {
      type: t(lang, `ledgerType.${row.type}`),
      storyState: t(lang, `state.${row.story_state}`),
      ledgerBucket: t(lang, `ledgerBucket.${row.ledger_bucket}`),
    },
  };
}
