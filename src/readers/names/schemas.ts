import { Type, type Static } from '@sinclair/typebox';
import { ActorId, DateTime, HumanActorBody, Nullable } from '../../platform/schemas.js';
import { myNameExample, nameHistoryExample, nameSetExample, setNameExample } from './examples.js';

/** Display names: the reader's own name (set and change) and a person's past names for moderators. */

export const SetNameBody = Type.Object(
  {
    ...HumanActorBody,
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        '3 to 30 letters (any script), digits, spaces and . _ - ; no space at either end or twice in a row; unique without case; not a reserved word (admin, moderator …) or a look-alike of one; screened like the newsroom screens text',
    }),
  },
  {
    title: 'SetDisplayNameRequest',
    description: 'Body that sets or changes the signed reader’s display name: the actor fields and the name.',
    examples: [setNameExample],
    additionalProperties: false,
  },
);

export const MyName = Type.Object(
  { actorId: Type.String(), name: Nullable(Type.String()), chosenAt: Nullable(DateTime) },
  {
    title: 'DisplayName',
    description: 'A reader’s display name and when they chose it (both null: no name yet).',
    examples: [myNameExample],
  },
);
export type MyName = Static<typeof MyName>;

export const NameSet = Type.Composite([MyName, Type.Object({ changed: Type.Boolean({ description: 'false: it was the name already' }) })], {
  title: 'DisplayNameSet',
  description: 'The reader’s display name after the write, and whether it changed.',
  examples: [nameSetExample],
});

export const NameHistoryParams = Type.Object({ actorId: ActorId }, { additionalProperties: false });

export const NameHistory = Type.Composite(
  [
    MyName,
    Type.Object({
      past: Type.Array(Type.Object({ name: Type.String(), chosenAt: DateTime, replacedAt: DateTime }), {
        description: 'Names given up, most recently given up first (at most 100)',
      }),
    }),
  ],
  {
    title: 'DisplayNameHistory',
    description: 'A person’s display name now and the names they gave up, with when each was chosen and replaced.',
    examples: [nameHistoryExample],
  },
);
export type NameHistory = Static<typeof NameHistory>;
