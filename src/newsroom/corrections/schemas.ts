import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HumanActorBody } from '../../platform/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { RevisionChanges } from '../reviews/schemas.js';
import { ReviewStatusSchema } from '../stories/schemas.js';

/** Corrections and retractions issued by content admins. */

export const CorrectionBody = Type.Object(
  {
    ...HumanActorBody,
    changes: RevisionChanges,
    note: Type.String({ minLength: 1, maxLength: 2000, description: 'The correction note readers see: what was wrong and what changed' }),
  },
  { title: 'CorrectStoryRequest', additionalProperties: false },
);
export type CorrectionBody = Static<typeof CorrectionBody>;

export const RetractionBody = Type.Object(
  { ...HumanActorBody, reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Why the story is retracted' }) },
  { title: 'RetractStoryRequest', additionalProperties: false },
);
export type RetractionBody = Static<typeof RetractionBody>;

export const CorrectionResponse = Type.Object(
  {
    id: Type.String(),
    storyId: Type.String(),
    kind: StringEnum(['CORRECTION', 'RETRACTION']),
    version: Type.Integer({ description: 'The story version after the change (a correction makes a new one)' }),
    packetHash: Type.String(),
    note: Type.String({ description: 'The correction note, or the retraction reason' }),
    reviewStatus: ReviewStatusSchema,
    ledgerEventId: Type.String(),
    webhookEventId: Type.String({ description: 'The id of the story.correction / story.retraction webhook event' }),
    createdBy: Type.String(),
    createdAt: DateTime,
  },
  { title: 'Correction' },
);
export type CorrectionResponse = Static<typeof CorrectionResponse>;
