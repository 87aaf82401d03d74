-- A reader's second thoughts (docs/newsroom.md, "Comments" and "Reward votes"): the author of a comment may edit
-- its text for a short while after posting and delete it at any time; a reader may change their reward vote while
-- the story's reward window is open.

-- When the text was last edited (null: never). A deleted comment keeps its row, so that replies keep their place;
-- its body is emptied by the same update that sets deleted_at, so no read can show the text again.
ALTER TABLE comments ADD COLUMN edited_at timestamptz;
ALTER TABLE comments ADD COLUMN deleted_at timestamptz;
ALTER TABLE comments ADD CONSTRAINT comments_deleted_empty CHECK (deleted_at IS NULL OR body = '');

-- When the vote's direction or weight was last changed (null: as cast). Still one row per reader and story.
ALTER TABLE reward_votes ADD COLUMN changed_at timestamptz;

-- the runtime role: comments and reward votes now move on (an edit, a deletion, a change of vote), never removed
GRANT UPDATE ON comments, reward_votes TO newsroom_runtime;
