import { storyId } from '../common/examples.js';

/** Examples of ledger events for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

export const ledgerEventExample = {
  id: 'le_Tb5Nm2Qs8Vx1Kc4R',
  storyId,
  title: 'Harbour board approves night ferry to Eastside from June',
  type: 'UPDATE',
  createdAt: '2026-05-13T07:40:18.204Z',
  storyState: 'PROVISIONAL',
  editorialState: 'PUBLISHED',
  promotionState: 'PROVISIONAL',
  rewardWindowActive: true,
  ledgerBucket: 'provisional',
};

export const ledgerEventPageExample = {
  events: [
    {
      id: 'le_Pc7Ua3Wd9Zg1Yh6F',
      storyId: 'st_Lp2sD8fG4hJk6ZxC',
      title: 'Council budget: transit figure corrected to 41.2 million',
      type: 'CORRECTION',
      createdAt: '2026-05-13T08:15:40.921Z',
      storyState: 'GRADUATED',
      editorialState: 'CORRECTED',
      promotionState: 'GRADUATED',
      rewardWindowActive: false,
      ledgerBucket: 'graduated',
    },
    ledgerEventExample,
  ],
  nextCursor: 'WyJsZWRnZXI6ZXZlbnRzIiwiMTgzMjQiXQ.Xm3Qv8Rb2Lt6Wk1N',
};

export const labeledLedgerEventExample = {
  ...ledgerEventExample,
  labels: { type: 'Update', storyState: 'Provisional', ledgerBucket: 'Provisional' },
};
