import type { ColumnType, Generated } from 'kysely';
import type { UpdatedAt } from '../platform/db/row-types.js';

/**
 * The row types of the tables readers owns, for Kysely (`ReadersDatabase`: table name → row type); the names are
 * listed in tables.ts. test/platform/schema-types.test.ts checks them against the migrated database.
 */
export interface ReadersDatabase {
  user_preferences: UserPreferencesTable;
  user_bookmarks: UserBookmarksTable;
  user_topics: UserTopicsTable;
  reading_history: ReadingHistoryTable;
  site_accounts: SiteAccountsTable;
  site_sessions: SiteSessionsTable;
  display_names: DisplayNamesTable;
  display_name_history: DisplayNameHistoryTable;
  reader_notifications: ReaderNotificationsTable;
}

export interface UserPreferencesTable {
  actor_id: string;
  preferences: ColumnType<Record<string, unknown>, string | undefined, string>;
  updated_at: UpdatedAt;
}

/** migrations/0005_readers.sql: a reader's bookmarks, followed topics and personalization history. */
export interface UserBookmarksTable {
  actor_id: string;
  story_id: string;
  created_at: Date;
}

export type TopicKind = 'ROOM' | 'TAG';

export interface UserTopicsTable {
  actor_id: string;
  /** The normalized form (src/readers/users/topic-name.ts), unique per reader. */
  topic: string;
  kind: TopicKind;
  label: string;
  created_at: Date;
}

export interface ReadingHistoryTable {
  actor_id: string;
  story_id: string;
  first_read_at: Date;
  last_read_at: Date;
  read_count: Generated<number>;
}

/** migrations/0005_readers.sql: the reader site's account of each person it logged in. */
export interface SiteAccountsTable {
  account_id: string;
  linked_human_id: string;
  created_at: Date;
  last_login_at: Date;
}

/** migrations/0009_readers_display_names.sql: the display name of each actor that chose one. */
export interface DisplayNamesTable {
  actor_id: string;
  name: string;
  /** The comparison form (src/readers/names/policy.ts), unique. */
  name_key: string;
  chosen_at: Date;
  created_at: Date;
}

/** migrations/0009_readers_display_names.sql: names given up, for moderators. */
export interface DisplayNameHistoryTable {
  id: string;
  actor_id: string;
  name: string;
  chosen_at: Date;
  replaced_at: Date;
}

/** migrations/0010_readers_notifications.sql: when a reader last looked at their notifications, their feed's token. */
export interface ReaderNotificationsTable {
  actor_id: string;
  seen_at: Date | null;
  feed_token: string | null;
  updated_at: Date;
}

/** migrations/0005_readers.sql: the reader site's browser sessions. */
export interface SiteSessionsTable {
  id: string;
  data: ColumnType<unknown, string, string>;
  expires_at: Date;
}
