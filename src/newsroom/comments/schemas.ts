import { Type, type Static } from '@sinclair/typebox';
import { NextCursor } from '../../platform/cursor.js';
import { StoryId } from '../common/schemas.js';
import { DateTime, HumanActorBody, Nullable } from '../../platform/schemas.js';
import { commentExample, commentPageExample, createCommentExample, editCommentExample, storyCommentExample } from './examples.js';

/** Reader comments on a story: the write and the list. */

export const CommentBody = Type.Object(
  {
    ...HumanActorBody,
    body: Type.String({ minLength: 1, maxLength: 5000 }),
    parentId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  {
    title: 'CreateCommentRequest',
    description: 'Body of a comment: the actor fields, the text and, for a reply, the parent comment.',
    examples: [createCommentExample],
    additionalProperties: false,
  },
);
export type CommentBody = Static<typeof CommentBody>;

/** The author's new text for their comment. */
export const CommentEditBody = Type.Object(
  { ...HumanActorBody, body: Type.String({ minLength: 1, maxLength: 5000 }) },
  {
    title: 'EditCommentRequest',
    description: "Body of a comment's edit: the actor fields (the author's) and the new text.",
    examples: [editCommentExample],
    additionalProperties: false,
  },
);
export type CommentEditBody = Static<typeof CommentEditBody>;

/** The author's deletion of their comment: the actor fields alone. */
export const CommentDeleteBody = Type.Object(
  { ...HumanActorBody },
  {
    title: 'DeleteCommentRequest',
    description: 'Body of a deletion: the actor fields (the author of the comment).',
    additionalProperties: false,
  },
);

export const CommentParams = Type.Object({
  id: StoryId,
  commentId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'The comment id' }),
});

/** A comment as every read and write answers it. */
const Comment = Type.Object(
  {
    id: Type.String(),
    actorId: Type.String(),
    authorName: Type.Optional(
      Type.String({ description: "The author's display name (docs/reader-accounts.md); absent while they have none" }),
    ),
    verified: Type.Boolean(),
    parentId: Nullable(Type.String()),
    body: Type.String({ description: 'The text; empty when the comment was deleted' }),
    createdAt: DateTime,
    editedAt: Type.Optional(DateTime),
    deleted: Type.Boolean({
      description: 'True when the author deleted the comment: the text is gone (body empty), the row keeps its place in the thread',
    }),
  },
  {
    title: 'Comment',
    description:
      'A reader comment on a story: who wrote it (actorId, and what the front end signed as verified), the parent for a reply, the text and when; editedAt when its author edited the text, deleted with an empty body when they deleted it.',
    examples: [commentExample],
  },
);
export type Comment = Static<typeof Comment>;

export const CommentResponse = Type.Composite([Type.Object({ storyId: Type.String() }), Comment], {
  title: 'StoryComment',
  description: 'A comment as the write answers it: the comment and the story it is on.',
  examples: [storyCommentExample],
});

export const CommentsResponse = Type.Object(
  {
    storyId: Type.String(),
    items: Type.Array(Comment, { description: 'Oldest first' }),
    nextCursor: NextCursor,
  },
  {
    title: 'CommentPage',
    description: 'One page of the comments on a story, oldest first; nextCursor is present when there is a next page.',
    examples: [commentPageExample],
  },
);
export type CommentsResponse = Static<typeof CommentsResponse>;
