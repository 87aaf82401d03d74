import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HumanActorBody } from '../../platform/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { TOPIC_MAX_LENGTH } from './topic-name.js';
import { followTopicExample, topicExample, topicFollowedExample, topicRemovedExample, topicsListExample } from './examples.js';

/** How many topics one reader may follow (a follow past it: 409 TOPIC_LIMIT_REACHED). */
export const TOPICS_PER_READER = 100;

export const TopicKindSchema = StringEnum(['ROOM', 'TAG'], {
  description: 'ROOM: a room slug, matched against the story room; TAG (default): free words, matched as a phrase in the story text',
});

/** The seed's "topic follow" request. */
export const TopicFollowBody = Type.Object(
  {
    ...HumanActorBody,
    // room for surrounding whitespace and decomposed characters; the normalized form is checked against TOPIC_MAX_LENGTH
    topic: Type.String({
      minLength: 1,
      maxLength: TOPIC_MAX_LENGTH * 4,
      description: `At most ${TOPIC_MAX_LENGTH} characters once normalized`,
    }),
    kind: Type.Optional(TopicKindSchema),
  },
  {
    title: 'FollowTopicRequest',
    description: 'Body that follows a topic: the actor fields, the topic text and its kind (ROOM or TAG).',
    examples: [followTopicExample],
    additionalProperties: false,
  },
);
export type TopicFollowBody = Static<typeof TopicFollowBody>;

export const TopicParams = Type.Object({
  topic: Type.String({
    minLength: 1,
    maxLength: TOPIC_MAX_LENGTH * 4,
    description: 'The topic as followed (any spelling that normalizes to it)',
  }),
});

export const Topic = Type.Object(
  {
    topic: Type.String({ description: 'Normalized: NFC, lower case, whitespace trimmed and collapsed. The key of the topic.' }),
    kind: TopicKindSchema,
    label: Type.String({ description: 'The text as the reader first sent it' }),
    followedAt: DateTime,
  },
  {
    title: 'Topic',
    description: 'A topic a reader follows: its normalized key, kind (ROOM or TAG), the label as first sent and when it was followed.',
    examples: [topicExample],
  },
);
export type Topic = Static<typeof Topic>;

export const TopicFollowed = Type.Object(
  {
    actorId: Type.String(),
    ...Topic.properties,
    created: Type.Boolean({ description: 'false: the topic was followed already (kept as it was)' }),
  },
  {
    title: 'TopicFollowed',
    description: 'A topic as the follow answers it, with whether the follow is new.',
    examples: [topicFollowedExample],
  },
);
export type TopicFollowed = Static<typeof TopicFollowed>;

export const TopicsList = Type.Object(
  {
    actorId: Type.String(),
    items: Type.Array(Topic, { description: `Oldest follow first; at most ${TOPICS_PER_READER}` }),
    limit: Type.Integer({ description: 'How many topics a reader may follow' }),
  },
  {
    title: 'TopicsList',
    description: 'The topics a reader follows, oldest first, and how many they may follow.',
    examples: [topicsListExample],
  },
);
export type TopicsList = Static<typeof TopicsList>;

export const TopicRemoved = Type.Object(
  {
    actorId: Type.String(),
    topic: Type.String({ description: 'The normalized topic' }),
    removed: Type.Boolean({ description: 'false: the topic was not followed (nothing changed)' }),
    kind: Type.Union([TopicKindSchema, Type.Null()]),
    followedAt: Type.Union([DateTime, Type.Null()]),
  },
  {
    title: 'TopicRemoved',
    description: 'What unfollowing did: the normalized topic, whether it was followed, its kind and when it had been followed.',
    examples: [topicRemovedExample],
  },
);
export type TopicRemoved = Static<typeof TopicRemoved>;
