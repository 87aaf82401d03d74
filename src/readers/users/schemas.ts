import { Type, type Static } from '@sinclair/typebox';
import { HumanActorBody, HumanActorQuery, LangSchema } from '../../platform/schemas.js';

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
  { title: 'Preferences', additionalProperties: false },
);
export type Preferences = Static<typeof Preferences>;

export const PreferencesUpdateBody = Type.Object(
  { ...HumanActorBody, preferences: Preferences },
  { title: 'UpdatePreferencesRequest', additionalProperties: false },
);
export type PreferencesUpdateBody = Static<typeof PreferencesUpdateBody>;

export const SignedReadQuery = Type.Object(HumanActorQuery, { additionalProperties: false });

/** The "user actor request" of the seed: a signed write whose body names only the actor. */
export const UserActorBody = Type.Object(HumanActorBody, { title: 'UserActorRequest', additionalProperties: false });

export const PreferencesResponse = Type.Object(
  {
    actorId: Type.String(),
    preferences: Preferences,
    updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'PreferencesResponse' },
);
export type PreferencesResponse = Static<typeof PreferencesResponse>;
