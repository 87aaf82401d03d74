import { storyCardExample } from '../stories/examples.js';

/** Example of a feed page for the OpenAPI document (checked against its schema by test/platform/openapi-words.test.ts). */

export const feedPageExample = {
  mode: 'trending',
  modeLabel: 'Trending',
  items: [storyCardExample],
  nextCursor: 'WyJmZWVkOnRyZW5kaW5nIiwzNjAyMjcxOC40NCwic3RfUW03dlgya1I5cEx3NE5hRSJd.Fq2Lw8Xn5Tb1Vk7M',
};
