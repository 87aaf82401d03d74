/**
 * The one spelling of a followed topic. Two texts name the same topic when they normalize to the same
 * string; the database keeps only the normalized form, under a primary key (actor_id, topic), so the same
 * topic can never be followed twice whatever a client sends ("Climate Change", " climate   change ",
 * "CLIMATE CHANGE" and the decomposed "Cafe\u0301" / composed "Café" pairs are one topic each).
 *
 * Steps: Unicode NFC, lower case (the locale-independent default mapping), NFC again (lower-casing may
 * decompose, e.g. "İ"), runs of whitespace collapsed to one space, surrounding whitespace removed.
 */
export function normalizeTopic(text: string): string {
  return text.normalize('NFC').toLowerCase().normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** At most this many characters (code points) in a normalized topic. */
export const TOPIC_MAX_LENGTH = 100;

/** A room is followed by its slug (the rooms of stories: lower-case words joined by hyphens). */
export const ROOM_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Why a normalized topic cannot be followed as `kind`, or null when it can. */
export function topicProblem(topic: string, kind: 'ROOM' | 'TAG'): string | null {
  const length = [...topic].length;
  if (length === 0) return 'topic is empty once surrounding whitespace is removed';
  if (length > TOPIC_MAX_LENGTH) return `topic is longer than ${TOPIC_MAX_LENGTH} characters`;
  if (kind === 'ROOM' && !ROOM_SLUG.test(topic)) return 'a ROOM topic is a room slug: lower-case letters and digits joined by hyphens';
  return null;
}
