import { storyCardExample } from '../stories/examples.js';

/** Examples of search answers for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

export const searchItemExample = { ...storyCardExample, rank: 0.4375 };

export const searchPageExample = {
  items: [searchItemExample],
  query: { q: 'night ferry', room: 'local', lang: 'en', limit: 20, order: 'relevance' },
};
