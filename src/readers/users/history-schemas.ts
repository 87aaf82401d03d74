import { Type } from '@sinclair/typebox';
import { DateTime } from '../../platform/schemas.js';
import { historyClearedExample } from './examples.js';

/** The seed's "history-clear result". */
export const HistoryCleared = Type.Object(
  {
    actorId: Type.String(),
    cleared: Type.Integer({ minimum: 0, description: 'How many stories the erased history held (0 when it was empty)' }),
    clearedAt: DateTime,
  },
  {
    title: 'HistoryCleared',
    description: 'What clearing the personalization history did: how many stories it held and when it was cleared.',
    examples: [historyClearedExample],
  },
);
