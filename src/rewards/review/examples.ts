import { payoutExample } from '../settlements/examples.js';
import { orbs } from '../money/examples.js';

/** Examples of fraud review records for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

export const reviewCaseExample = {
  id: 'rc_Gt5Hn1Yp8Ws3Ke6M',
  targetType: 'RECIPIENT',
  targetId: 'rcp_Fs2Kd7Wm4Qx9Bn1V',
  status: 'IN_REVIEW',
  queue: 'PENDING',
  reason: 'Four up-votes a day from new accounts on every story of the bots this recipient owns',
  assignedToActorId: 'treasurer-5',
  resolution: null,
  openedBy: 'h_e6a09c3f7b1d48e2a5c0f9b3d71e6a24',
  createdAt: '2026-05-11T08:03:27.660Z',
  dueAt: '2026-05-14T08:03:27.660Z',
  updatedAt: '2026-05-11T10:41:02.317Z',
  closedAt: null,
  history: [
    {
      action: 'open',
      fromStatus: null,
      toStatus: 'OPEN',
      actor: 'h_e6a09c3f7b1d48e2a5c0f9b3d71e6a24',
      note: null,
      at: '2026-05-11T08:03:27.660Z',
    },
    {
      action: 'assign',
      fromStatus: 'OPEN',
      toStatus: 'IN_REVIEW',
      actor: 'h_e6a09c3f7b1d48e2a5c0f9b3d71e6a24',
      note: 'Checking the voters against the cartel analysis of 6 May',
      at: '2026-05-11T10:41:02.317Z',
    },
  ],
};

export const freezeResultExample = {
  targetType: 'RECIPIENT',
  targetId: 'rcp_Fs2Kd7Wm4Qx9Bn1V',
  frozen: true,
  reason: 'Fraud report: vote ring on the harbour stories, case rc_Gt5Hn1Yp8Ws3Ke6M',
  at: '2026-05-11T10:44:51.208Z',
  payoutsFrozen: 3,
  payoutsToReview: 0,
};

export const reviewQueueExample = {
  generatedAt: '2026-05-11T11:00:00.000Z',
  items: [
    {
      kind: 'FROZEN_RECIPIENT',
      queue: 'FROZEN',
      targetType: 'RECIPIENT',
      targetId: 'rcp_Fs2Kd7Wm4Qx9Bn1V',
      since: '2026-05-11T10:44:51.208Z',
      reason: 'Fraud report: vote ring on the harbour stories, case rc_Gt5Hn1Yp8Ws3Ke6M',
      by: 'h_e6a09c3f7b1d48e2a5c0f9b3d71e6a24',
      held: { count: 3, amount: orbs('310') },
    },
    {
      kind: 'HELD_PAYOUT',
      queue: 'PENDING',
      targetType: 'PAYOUT',
      targetId: 'po-1042009',
      since: '2026-05-10T09:30:12.004Z',
      reason: 'CARTEL_CLUSTER',
      by: null,
      payout: { ...payoutExample, id: 'po-1042009', status: 'REVIEW', statusReason: 'CARTEL_CLUSTER' },
    },
  ],
};

export const openReviewCaseExample = {
  actorId: 'treasurer-2',
  verified: true,
  linkedHumanId: 'h_e6a09c3f7b1d48e2a5c0f9b3d71e6a24',
  targetType: 'RECIPIENT',
  targetId: 'rcp_Fs2Kd7Wm4Qx9Bn1V',
  reason: 'Four up-votes a day from new accounts on every story of the bots this recipient owns',
  assignedToActorId: 'treasurer-5',
};
