import { diffArrays, diffWords } from 'diff';
import type { VersionsResponse } from '../../newsroom/stories/evidence-schemas.js';

type Packet = VersionsResponse['versions'][number]['packet'];

export const DIFF_FIELDS = ['title', 'summary', 'body', 'claims', 'sources'] as const;
export type DiffField = (typeof DIFF_FIELDS)[number];

/** One run of a field's diff: text both packets share, or text only the newer (added) or older (removed) has. */
export interface DiffRun {
  value: string;
  kind: 'same' | 'added' | 'removed';
}

export interface FieldDiff {
  field: DiffField;
  changed: boolean;
  /** Text fields: runs of words. List fields (claims, sources): one run per line. */
  runs: DiffRun[];
}

const kindOf = (c: { added?: boolean; removed?: boolean }): DiffRun['kind'] => (c.added ? 'added' : c.removed ? 'removed' : 'same');

// readers compare what the claims say and which sources they rest on: claim ids are for machines (flags, reviews)
const claimLines = (p: Packet) => p.claims.map((c) => c.text);
const sourceLines = (p: Packet) => p.sources.map((s) => [s.title, s.publisher, s.url].filter(Boolean).join(' · '));
const linesOf = { claims: claimLines, sources: sourceLines } as const;

/** The fields in which `newer` differs from `older` (what a correction changed), in DIFF_FIELDS order. */
export function changedFields(older: Packet, newer: Packet): DiffField[] {
  return DIFF_FIELDS.filter((field) =>
    field === 'claims' || field === 'sources'
      ? JSON.stringify(linesOf[field](older)) !== JSON.stringify(linesOf[field](newer))
      : older[field] !== newer[field],
  );
}

/** A readable diff of two packets, field by field: words for the texts, whole lines for claims and sources. */
export function packetDiff(older: Packet, newer: Packet): FieldDiff[] {
  return DIFF_FIELDS.map((field) => {
    let runs: DiffRun[];
    if (field === 'claims' || field === 'sources') {
      const lines = linesOf[field];
      runs = diffArrays(lines(older), lines(newer)).flatMap((c) => c.value.map((line) => ({ value: line, kind: kindOf(c) })));
    } else {
      runs = diffWords(older[field], newer[field]).map((c) => ({ value: c.value, kind: kindOf(c) }));
    }
    return { field, changed: runs.some((r) => r.kind !== 'same'), runs };
  });
}
