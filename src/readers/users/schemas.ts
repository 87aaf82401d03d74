import { Type, type Static } from '@sinclair/typebox';
import { HumanActorBody, HumanActorQuery, LangSchema } from '../../platform/schemas.js';
import { preferencesExample, preferencesResponseExample, updatePreferencesExample, userActorExample } from './examples.js';

/** A reader's preferences: a small JSON document, merged field by field on update. */
export const Preferences = Type.Object(
  {
    lang: Type.Optional(LangSchema),
    feedMode: Type.Optional(
      Type.Union([Type.Literal('trending'), Type.Literal('graduated'), Type.Literal('developing'), Type.Literal('recent')]),
    ),
    rooms: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9-]+$' }), { maxItems: 50, uniqueItems: true }),
    ),
    emailDigest: Type.Optional(Type.Union([Type.Literal('OFF'), Type.Literal('DAILY'), Type.Literal('WEEKLY')])),
    showContested: Type.Optional(Type.Boolean()),
    personalization: Type.Optional(
      Type.Boolean({
        description:
          'true: the stories you read are recorded and your feed ranks unread stories first; absent or false (the default): nothing is recorded',
      }),
    ),
  },
  {
    title: 'Preferences',
    description:
      "A reader's preferences: language, feed mode, rooms, e-mail digest, whether contested stories show, and whether reading history is recorded (off by default).",
    examples: [preferencesExample],
    additionalProperties: false,
  },
);
export type Preferences = Static<typeof Preferences>;

export const PreferencesUpdateBody = Type.Object(
  { ...HumanActorBody, preferences: Preferences },
  {
    title: 'UpdatePreferencesRequest',
    description: 'Body that updates preferences: the actor fields and the fields to change (merged field by field).',
    examples: [updatePreferencesExample],
    additionalProperties: false,
  },
);
export type PreferencesUpdateBody = Static<typeof PreferencesUpdateBody>;

export const SignedReadQuery = Type.Object(HumanActorQuery, { additionalProperties: false });

/** The "user actor request" of the seed: a signed write whose body names only the actor. */
export const UserActorBody = Type.Object(HumanActorBody, {
  title: 'UserActorRequest',
  description: 'Body of a reader write that needs nothing but the actor fields (removing a bookmark or a topic, clearing the history).',
  examples: [userActorExample],
  additionalProperties: false,
});

export const PreferencesResponse = Type.Object(
  {
    actorId: Type.String(),
    preferences: Preferences,
    updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  {
    title: 'PreferencesResponse',
    description: "A reader's preferences as stored, with when they were last updated.",
    examples: [preferencesResponseExample],
  },
);
export type PreferencesResponse = Static<typeof PreferencesResponse>;
