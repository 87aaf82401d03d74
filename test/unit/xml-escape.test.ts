import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { xmlEscape } from '../../src/web/site/xml.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import { carried, exactXmlParser, isXmlChar } from '../helpers/xml.js';

const parser = exactXmlParser();
/** `text` written as an element's content and as two attribute values (double and single quotes), read back. */
function roundTrip(text: string) {
  const escaped = xmlEscape(text);
  const doc = `<r a="${escaped}" b='${escaped}'>${escaped}</r>`;
  assert.equal(XMLValidator.validate(doc), true, doc);
  const r = (parser.parse(doc) as { r: Record<string, string> }).r;
  return { escaped, content: r['#text'] ?? '', a: r['@_a'], b: r['@_b'] };
}

/** The escaper's output: XML characters, with `&` only as one of the references it writes and no raw markup. */
// eslint-disable-next-line no-control-regex -- the controls are what it must not hold
const WRITTEN = /^(?:[^&<>"'\t\n\r\u0000-\u001f\ufffe\uffff]|&(?:amp|lt|gt|quot|apos|#9|#10|#13);)*$/;

/** Any text, weighted towards what breaks XML: markup, CDATA's end, references, controls and lone surrogates. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom('<', '>', '&', '"', "'", ']]>', '<![CDATA[', '&amp;', '&#38;', '&lt;', '&#x1F600;', '\r\n', '\r', '\t', '\n'),
    fc.constantFrom('\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001f', '\u007f', '\u0085', '\ufffe', '\uffff', '\ufffd'),
    fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', '\u2028', '\u202e'),
    fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 60,
});

describe('the XML text escaper', () => {
  test('writes markup as entities, TAB, LF and CR as references, and drops what XML cannot carry', () => {
    const cases: [string, string][] = [
      ['plain text', 'plain text'],
      ['Tidal & <turbines> "power" \'island\'', 'Tidal &amp; &lt;turbines&gt; &quot;power&quot; &apos;island&apos;'],
      ['X]]>]]></title><link href="x"/>', 'X]]&gt;]]&gt;&lt;/title&gt;&lt;link href=&quot;x&quot;/&gt;'],
      ['&amp; stays text', '&amp;amp; stays text'],
      ['a\tb\nc\r\nd', 'a&#9;b&#10;c&#13;&#10;d'],
      ['nul\u0000 bel\u0007 vt\u000b ff\u000c esc\u001b us\u001f', 'nul bel vt ff esc us'],
      ['nonchars \ufffe\uffff kept \ufffd\u007f\u0085', 'nonchars  kept \ufffd\u007f\u0085'],
      ['lone \ud800 and \udc00, paired \ud83d\ude00', 'lone  and , paired \ud83d\ude00'],
      ['\udc00\ud800', ''],
      ['', ''],
    ];
    for (const [text, written] of cases) assert.equal(xmlEscape(text), written, JSON.stringify(text));
  });

  test('any text read back by an XML parser, as content and as attribute values, is the text less what XML cannot carry', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const { escaped, content, a, b } = roundTrip(text);
        assert.match(escaped, WRITTEN);
        assert.ok(
          [...escaped].every((ch) => isXmlChar(ch.codePointAt(0)!)),
          JSON.stringify(escaped),
        );
        const expected = carried(text);
        assert.equal(content, expected);
        assert.equal(a, expected);
        assert.equal(b, expected);
      }),
      { numRuns: fuzzRuns(5000, 500) },
    );
  });
});
