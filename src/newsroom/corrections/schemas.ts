import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HumanActorBody } from '../../platform/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { RevisionChanges } from '../reviews/schemas.js';
import { ReviewStatusSchema } from '../stories/schemas.js';
import { correctionExample, correctStoryExample, retractStoryExample } from './examples.js';

/** Corrections and retractions issued by content admins. */

export const CorrectionBody = Type.Object(
  {
    ...HumanActorBody,
    changes: RevisionChanges,
    note: Type.String({ minLength: 1, maxLength: 2000, description: 'The correction note readers see: what was wrong and what changed' }),
  },
  {
    title: 'CorrectStoryRequest',
    description: 'Body of a correction: the changes over the current packet and the note readers see.',
    examples: [correctStoryExample],
    additionalProperties: false,
  },
);
export type CorrectionBody = Static<typeof CorrectionBody>;

export const RetractionBody = Type.Object(
  { ...HumanActorBody, reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Why the story is retracted' }) },
  {
    title: 'RetractStoryRequest',
    description: 'Body of a retraction: why the story is retracted.',
    examples: [retractStoryExample],
    additionalProperties: false,
  },
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
  {
    title: 'Correction',
    description:
      'A correction or retraction as recorded: the story version and packet hash after it, the note or reason, the review status, and the ledger and webhook events it wrote.',
    examples: [correctionExample],
  },
);
export type CorrectionResponse = Static<typeof CorrectionResponse>;
