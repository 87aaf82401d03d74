import { Type, type Static } from '@sinclair/typebox';
import { NextCursor } from '../../platform/cursor.js';
import { DateTime, HumanActorBody, Nullable } from '../../platform/schemas.js';

/** Reader comments on a story: the write and the list. */

export const CommentBody = Type.Object(
  {
    ...HumanActorBody,
    body: Type.String({ minLength: 1, maxLength: 5000 }),
    parentId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { title: 'CreateCommentRequest', additionalProperties: false },
);
export type CommentBody = Static<typeof CommentBody>;

/** A comment as every read and write answers it. */
const Comment = Type.Object(
  {
    id: Type.String(),
    actorId: Type.String(),
    verified: Type.Boolean(),
    parentId: Nullable(Type.String()),
    body: Type.String(),
    createdAt: DateTime,
  },
  { title: 'Comment' },
);
export type Comment = Static<typeof Comment>;

export const CommentResponse = Type.Composite([Type.Object({ storyId: Type.String() }), Comment], { title: 'StoryComment' });

export const CommentsResponse = Type.Object(
  {
    storyId: Type.String(),
    items: Type.Array(Comment, { description: 'Oldest first' }),
    nextCursor: NextCursor,
  },
  { title: 'CommentPage' },
);
export type CommentsResponse = Static<typeof CommentsResponse>;
