import { scanText } from '../../newsroom/moderation/safety-scan.js';

/**
 * The rules of a display name (docs/reader-accounts.md, "Display names"), as pure functions: what a name may
 * hold, its comparison key, and why one is refused. The database repeats what it can state (length, no space at
 * either end, NFC, one holder per key: migrations/0009_readers_display_names.sql).
 */

export const NAME_MIN = 3;
export const NAME_MAX = 30;

/** Letters and combining marks of any script, decimal digits, space, `.`, `_` and `-`. */
const ALLOWED = /^[\p{L}\p{M}\p{Nd} ._-]+$/u;

/** Letters that look like Latin ones (Cyrillic, Greek) and digits read as letters: folded before the reserved check. */
const LOOK_ALIKES: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  х: 'x',
  у: 'y',
  і: 'i',
  ј: 'j',
  ԁ: 'd',
  м: 'm',
  т: 't',
  н: 'h',
  к: 'k',
  α: 'a',
  ε: 'e',
  ο: 'o',
  ρ: 'p',
  ι: 'i',
  ν: 'v',
  τ: 't',
  κ: 'k',
  μ: 'm',
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  l: 'i',
};

/** Each look-alike read as the letter it looks like (`l` and `1` as `i`: the reserved words are read the same way). */
function lookAlikes(text: string): string {
  return [...text].map((c) => LOOK_ALIKES[c] ?? c).join('');
}

/**
 * Words only staff may seem to be: a name whose folded form contains one (or is one, for the short ones) is
 * refused, so "Admin", "ADM1N", "the.moderator" and "аdmin" with a Cyrillic а are all refused.
 */
const RESERVED_WITHIN = ['admin', 'moderator', 'newsroom', 'official', 'staff', 'sysop'].map((w) => lookAlikes(w));
const RESERVED_EXACT = ['mod', 'mods', 'root', 'system', 'support', 'operator', 'owner', 'anonymous', 'deleted'].map((w) => lookAlikes(w));

/** The comparison key of a name: two names with one key are the same name (case and width ignored). */
export const nameKey = (name: string): string => name.normalize('NFKC').toLowerCase();

/** The form a name is stored and shown in. */
export const storedName = (name: string): string => name.normalize('NFC');

/** Code points, as the database counts a name's length. */
const length = (name: string) => [...name].length;

/** The folded form the reserved words are looked for in: no marks, no separators, look-alikes read as Latin. */
function folded(name: string): string {
  return lookAlikes(nameKey(name).normalize('NFKD').replace(/\p{M}/gu, '')).replace(/[ ._-]/g, '');
}

/** The rules a name can break, each with its sentence (the API's message; the site words each in its languages). */
export const NAME_RULES = {
  NAME_LENGTH: `a name has ${NAME_MIN} to ${NAME_MAX} characters`,
  NAME_CHARACTERS: 'a name holds letters, digits, spaces and . _ - only',
  NAME_EDGE_SPACE: 'a name does not start or end with a space',
  NAME_DOUBLE_SPACE: 'a name has one space between words',
  NAME_NO_LETTER: 'a name holds at least one letter or digit',
  NAME_ID_LIKE: 'a name may not look like an account or bot id',
  NAME_RESERVED: 'this name is reserved',
  NAME_SCREENED: 'this name is not allowed',
} as const;
export type NameRule = keyof typeof NAME_RULES;

/** The rule `name` (as the person sent it) breaks, or null when it can be a display name. */
export function nameProblem(raw: string): NameRule | null {
  const name = storedName(raw);
  if (length(name) < NAME_MIN || length(name) > NAME_MAX) return 'NAME_LENGTH';
  if (!ALLOWED.test(name)) return 'NAME_CHARACTERS';
  if (name !== name.trim()) return 'NAME_EDGE_SPACE';
  if (/ {2}/.test(name)) return 'NAME_DOUBLE_SPACE';
  if (!/[\p{L}\p{Nd}]/u.test(name)) return 'NAME_NO_LETTER';
  if (/^(acct|bot|h)_/i.test(name)) return 'NAME_ID_LIKE';
  const key = folded(name);
  if (RESERVED_WITHIN.some((word) => key.includes(word)) || RESERVED_EXACT.includes(key)) return 'NAME_RESERVED';
  if (scanText(name) !== 'ALLOW') return 'NAME_SCREENED';
  return null;
}
