/**
 * Characters XML 1.0 cannot carry at all, not even as a character reference: the C0 controls but TAB, LF and
 * CR, U+FFFE, U+FFFF and a UTF-16 surrogate without its pair (with the `u` flag a surrogate matches only when
 * it is alone: a pair is one code point above U+FFFF, which XML allows).
 */
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;

/**
 * The markup characters as entities, and TAB, LF and CR as character references: a parser normalizes a raw CR
 * to LF, and each of the three to a space in an attribute value, so only a reference keeps them as they were.
 */
const REFERENCES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/**
 * Text as XML character data: safe as an element's content and as an attribute's value in either quotes,
 * whatever the text holds (markup, `]]>`, controls), and read back by any XML parser as the same text less the
 * characters XML cannot carry, which are dropped. The Atom feeds and the sitemaps write every text and URL
 * through it; they use no CDATA, whose `]]>` cannot be escaped inside it.
 */
export function xmlEscape(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"'\t\n\r]/g, (c) => REFERENCES[c]!);
}
