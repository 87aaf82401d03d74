import type { ReadersDatabase } from './rows.js';
import type { TableNames } from '../platform/db/row-types.js';

const names = [
  'user_preferences',
  'user_bookmarks',
  'user_topics',
  'reading_history',
  'site_accounts',
  'site_sessions',
  'display_names',
  'display_name_history',
  'reader_notifications',
] as const;

/**
 * The tables readers own: a reader's preferences, bookmarks, followed topics and reading history (users), the
 * site's accounts and sessions (accounts), the display names with the names given up (names) and the state of a
 * reader's notifications. Readers' repositories and services take handles typed to these only
 * (`Db<ReadersTables>`); what a reader's pages show of a story comes through the `BookmarkStories` port and what
 * the data export shows of the other contexts through `ExportSources` (users/export-sections.ts).
 */
export const READERS_TABLES: TableNames<ReadersDatabase, typeof names> = names;

export type ReadersTables = ReadersDatabase;
