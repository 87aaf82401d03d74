import type { VersionsResponse } from '../../newsroom/stories/evidence-schemas.js';
import type { CorrectionForm } from './moderation-forms.js';
import type { CorrectionDraft } from './views/moderation-story.js';

type Packet = VersionsResponse['versions'][number]['packet'];
type ClaimInput = { id?: string; text: string };
type SourceInput = { url: string; title?: string; publisher?: string };

/** The form's fields as the current packet has them (what the correction form starts from). */
export const draftOf = (packet: Packet, note = ''): CorrectionDraft => ({
  title: packet.title,
  summary: packet.summary,
  body: packet.body,
  claims: packet.claims.map((c) => ({ id: c.id, text: c.text })),
  sources: JSON.stringify(packet.sources, null, 2),
  note,
});

const many = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * The draft a correction form sent: the claims assembled from their rows (a row ticked for removal, or left
 * empty, is left out; a row without an id is a new claim).
 */
export function draftFromForm(body: CorrectionForm): CorrectionDraft {
  const ids = many(body.claimId);
  const removed = new Set(many(body.claimRemove));
  const claims = many(body.claimText).flatMap((raw, i) => {
    const claimText = text(raw);
    return removed.has(String(i)) || !claimText.trim() ? [] : [{ id: ids[i]?.trim() ?? '', text: claimText }];
  });
  return { title: body.title, summary: body.summary, body: body.body, claims, sources: body.sources, note: body.note };
}

/** Text as the API stores it: a browser sends a textarea's line ends as CR LF. */
const text = (value: string) => value.replace(/\r\n?/g, '\n');

function parseList<T>(value: string, valid: (item: Record<string, unknown>) => boolean): T[] | null {
  try {
    const parsed: unknown = JSON.parse(value);
    if (
      !Array.isArray(parsed) ||
      !parsed.every((item) => item !== null && typeof item === 'object' && valid(item as Record<string, unknown>))
    )
      return null;
    return parsed as T[];
  } catch {
    return null;
  }
}

const optionalString = (v: unknown) => v === undefined || typeof v === 'string';
const sourceShape = (s: Record<string, unknown>) => typeof s.url === 'string' && optionalString(s.title) && optionalString(s.publisher);

/**
 * The changes a correction form makes to the current packet (only the fields that differ, as the API takes
 * them) and the packet they would make, for the preview's diff; or the console's refusal code.
 */
export function correctionOf(
  current: Packet,
  draft: CorrectionDraft,
): { ok: true; changes: Record<string, unknown>; proposed: Packet; note: string } | { ok: false; code: string } {
  const changes: Record<string, unknown> = {};
  for (const field of ['title', 'summary', 'body'] as const) {
    const value = text(draft[field]);
    if (value === current[field]) continue;
    if (!value.trim()) return { ok: false, code: 'CONSOLE_FIELD_EMPTY' };
    changes[field] = value;
  }
  const claims: ClaimInput[] = draft.claims.map((c) => (c.id ? { id: c.id, text: c.text } : { text: c.text }));
  if (JSON.stringify(claims) !== JSON.stringify(current.claims)) changes.claims = claims;
  const sources = parseList<SourceInput>(draft.sources, sourceShape);
  if (!sources) return { ok: false, code: 'CONSOLE_SOURCES_INVALID' };
  if (JSON.stringify(sources) !== JSON.stringify(current.sources)) changes.sources = sources;
  if (Object.keys(changes).length === 0) return { ok: false, code: 'CONSOLE_NO_CHANGES' };
  const note = text(draft.note).trim();
  if (!note) return { ok: false, code: 'CONSOLE_NOTE_REQUIRED' };
  const proposed: Packet = {
    ...current,
    ...(changes as Partial<Packet>),
    // a new claim gets its id from the service: the preview marks it with "+"
    claims: claims.map((c) => ({ id: c.id ?? '+', text: c.text })),
    sources,
  };
  return { ok: true, changes, proposed, note };
}
