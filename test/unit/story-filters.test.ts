import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HIDDEN_MODERATION, PUBLICATION_STAGES, REVIEW_STATUSES, statePairs } from '../../src/newsroom/stories/story-filters.js';
import { isPubliclyVisible, storyState } from '../../src/newsroom/stories/story-state.js';
import { STORY_STATES } from '../../src/newsroom/stories/schemas.js';

describe('story filters agree with story-state.ts', () => {
  test('the SQL visibility rule hides exactly the moderation states isPubliclyVisible() hides', () => {
    for (const moderation of ['PENDING_SCAN', 'ALLOWED', 'QUARANTINED', 'BLOCKED'] as const) {
      assert.equal(isPubliclyVisible(moderation), !HIDDEN_MODERATION.includes(moderation), moderation);
    }
  });

  test('statePairs() partitions every published (stage, review status) pair by its derived state', () => {
    const seen = new Map<string, string>();
    for (const state of STORY_STATES) {
      for (const [stage, review] of statePairs(state)) {
        assert.equal(storyState(stage, review), state);
        assert.equal(seen.has(`${stage}/${review}`), false, 'a pair belongs to one state only');
        seen.set(`${stage}/${review}`, state);
      }
    }
    const published = PUBLICATION_STAGES.filter((s) => s !== 'CANDIDATE');
    assert.equal(seen.size, published.length * REVIEW_STATUSES.length, 'every published pair has a state; candidates none');
  });
});
