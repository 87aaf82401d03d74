import { Type } from '@sinclair/typebox';
import { DateTime } from '../../platform/schemas.js';

/** The seed's "history-clear result". */
export const HistoryCleared = Type.Object(
  {
    actorId: Type.String(),
    cleared: Type.Integer({ minimum: 0, description: 'How many stories the erased history held (0 when it was empty)' }),
    clearedAt: DateTime,
  },
  { title: 'HistoryCleared' },
);
