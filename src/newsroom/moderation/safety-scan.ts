import type { Packet } from '../common/packet.js';

/**
 * The service's own safety scan. Rule-based and deterministic: the same packet always gets the same trace.
 * Hard-block categories (BLOCK: never published): sexual content involving minors, credible threats of
 * violence, doxxing of private personal data. Softer categories (QUARANTINE: held for a content admin):
 * unverifiable health claims, graphic violence. The trace names every rule and whether it matched, and
 * which fields matched, never the matched text (doxxing data must not be echoed).
 */

export type SafetyDecision = 'ALLOW' | 'QUARANTINE' | 'BLOCK';
export type SafetyCategory =
  'CHILD_SEXUAL_CONTENT' | 'VIOLENT_THREAT' | 'DOXXING' | 'UNVERIFIED_HEALTH_CLAIM' | 'GRAPHIC_VIOLENCE' | 'BANNED_SOURCE';

export const HARD_BLOCK_CATEGORIES: readonly SafetyCategory[] = ['CHILD_SEXUAL_CONTENT', 'VIOLENT_THREAT', 'DOXXING'];

interface Rule {
  id: string;
  category: SafetyCategory;
  action: 'BLOCK' | 'QUARANTINE';
  /** All patterns must match the same field text (AND); each pattern is case-insensitive. */
  patterns: RegExp[];
}

const MINOR = /\b(child|children|kid|kids|minor|minors|underage|pre-?teen|toddler|schoolgirl|schoolboy|\d{1,2}[- ]year[- ]old)\b/i;
const SEXUAL = /\b(sex|sexual|sexually|nude|naked|porn|pornographic|explicit|erotic|intercourse)\b/i;

const RULES: Rule[] = [
  { id: 'csam.minor-sexual', category: 'CHILD_SEXUAL_CONTENT', action: 'BLOCK', patterns: [MINOR, SEXUAL] },
  {
    id: 'threat.first-person-intent',
    category: 'VIOLENT_THREAT',
    action: 'BLOCK',
    patterns: [
      /\b(i|we)('m| am| are|'re| will|'ll| are going to| am going to| gonna)\s+(going\s+to\s+)?(kill|shoot|stab|bomb|murder|behead|execute|blow\s+up)\b/i,
    ],
  },
  {
    id: 'threat.targeted-call',
    category: 'VIOLENT_THREAT',
    action: 'BLOCK',
    patterns: [
      /\b(kill|shoot|bomb|murder)\s+(him|her|them|the\s+(mayor|judge|journalist|reporter|senator|family))\b.*\b(tonight|tomorrow|at\s+\d|address|home)\b/i,
    ],
  },
  {
    id: 'doxxing.phone-number',
    category: 'DOXXING',
    action: 'BLOCK',
    patterns: [/(\+\d{1,3}[\s.-]?)?\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/],
  },
  {
    id: 'doxxing.street-address',
    category: 'DOXXING',
    action: 'BLOCK',
    patterns: [
      /\b\d{1,5}\s+(?:[A-Z][a-z]+\s+){1,3}(street|st\.|avenue|ave\.?|road|rd\.|boulevard|blvd\.?|lane|ln\.|drive|dr\.|court|ct\.|way)\b/i,
      /\b(lives|home|house|resides|residence|address)\b/i,
    ],
  },
  {
    id: 'doxxing.government-id',
    category: 'DOXXING',
    action: 'BLOCK',
    patterns: [/\b(\d{3}-\d{2}-\d{4}|(ssn|social security|passport|national id)( number)?[:#\s]+[A-Z0-9-]{6,})\b/i],
  },
  {
    id: 'health.miracle-cure',
    category: 'UNVERIFIED_HEALTH_CLAIM',
    action: 'QUARANTINE',
    patterns: [
      /\b(miracle cure|cures? (cancer|diabetes|autism|covid|hiv|alzheimer'?s)|100% (effective|cure)|doctors hate|detox cures|reverses? aging)\b/i,
    ],
  },
  {
    id: 'health.vaccine-misinformation',
    category: 'UNVERIFIED_HEALTH_CLAIM',
    action: 'QUARANTINE',
    patterns: [/\bvaccines?\s+(cause|causes|causing)\s+(autism|infertility|cancer|death)\b/i],
  },
  {
    id: 'violence.graphic-description',
    category: 'GRAPHIC_VIOLENCE',
    action: 'QUARANTINE',
    patterns: [
      /\b(decapitat\w*|dismember\w*|disembowel\w*|mutilat\w*|gore|blood-soaked|entrails|graphic footage of (the )?(killing|execution))\b/i,
    ],
  },
];

export interface RuleResult {
  id: string;
  category: SafetyCategory;
  action: 'BLOCK' | 'QUARANTINE';
  matched: boolean;
  fields: string[];
}

export interface SafetyScanResult {
  decision: SafetyDecision;
  categories: { category: SafetyCategory; action: 'BLOCK' | 'QUARANTINE'; hardBlock: boolean }[];
  rules: RuleResult[];
}

/** The text fields the scan reads, named as the trace names them (`claims/0`, `sources/1`). */
export function fieldsOf(packet: Packet): [string, string][] {
  return [
    ['title', packet.title],
    ['summary', packet.summary],
    ['body', packet.body],
    ...packet.claims.map((c, i): [string, string] => [`claims/${i}`, c.text]),
    ...packet.sources.map((s, i): [string, string] => [`sources/${i}`, [s.title ?? '', s.publisher ?? ''].join(' ')]),
  ];
}

export interface ScanContext {
  /** URLs of the packet's sources whose host a content admin BANNED. */
  bannedSourceUrls: ReadonlySet<string>;
}

/**
 * Runs every rule over every text field of the packet. With a context (publish compute always passes one)
 * the rule `source.banned` is listed too: citing a BANNED source quarantines the candidate.
 */
export function scanPacket(packet: Packet, context?: ScanContext): SafetyScanResult {
  const fields = fieldsOf(packet);
  const rules = RULES.map((rule) => {
    const hits = fields.filter(([, text]) => rule.patterns.every((p) => p.test(text))).map(([name]) => name);
    return { id: rule.id, category: rule.category, action: rule.action, matched: hits.length > 0, fields: hits };
  });
  if (context) {
    const hits = packet.sources.flatMap((s, i) => (context.bannedSourceUrls.has(s.url) ? [`sources/${i}`] : []));
    rules.push({ id: 'source.banned', category: 'BANNED_SOURCE', action: 'QUARANTINE', matched: hits.length > 0, fields: hits });
  }
  const matched = rules.filter((r) => r.matched);
  const categories = [...new Map(matched.map((r) => [r.category, r])).values()].map((r) => ({
    category: r.category,
    action: r.action,
    hardBlock: HARD_BLOCK_CATEGORIES.includes(r.category),
  }));
  const decision: SafetyDecision = matched.some((r) => r.action === 'BLOCK') ? 'BLOCK' : matched.length ? 'QUARANTINE' : 'ALLOW';
  return { decision, categories, rules };
}

/**
 * The same rules over one short text a person writes (a display name): ALLOW, or the strictest action of the
 * rules that match. Names are refused unless ALLOW (src/readers/names/policy.ts).
 */
export function scanText(text: string): SafetyDecision {
  const matched = RULES.filter((rule) => rule.patterns.every((p) => p.test(text)));
  return matched.some((r) => r.action === 'BLOCK') ? 'BLOCK' : matched.length ? 'QUARANTINE' : 'ALLOW';
}

/** Where one rule matched in a field's text: [start, end) in UTF-16 code units. */
export interface RuleSpan {
  start: number;
  end: number;
  rule: string;
}

/**
 * Where the rules `ruleIds` match in `text`, each pattern of a rule that matches the text as a whole: for the
 * console, which shows a held candidate's text to a content admin with what fired marked in place. Computed on
 * reading, from the packet the trace scanned; the trace itself never keeps the matched text.
 */
export function ruleSpans(text: string, ruleIds: readonly string[]): RuleSpan[] {
  const spans: RuleSpan[] = [];
  for (const rule of RULES) {
    if (!ruleIds.includes(rule.id) || !rule.patterns.every((p) => p.test(text))) continue;
    for (const pattern of rule.patterns)
      for (const m of text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`)))
        if (m[0].length) spans.push({ start: m.index, end: m.index + m[0].length, rule: rule.id });
  }
  return spans.sort((a, b) => a.start - b.start || b.end - a.end);
}
