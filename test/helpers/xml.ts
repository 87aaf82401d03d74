import { XMLParser } from 'fast-xml-parser';

/** XML 1.0's Char production, written from the specification (not from the escaper's pattern). */
export const isXmlChar = (cp: number) =>
  cp === 0x9 ||
  cp === 0xa ||
  cp === 0xd ||
  (cp >= 0x20 && cp <= 0xd7ff) ||
  (cp >= 0xe000 && cp <= 0xfffd) ||
  (cp >= 0x10000 && cp <= 0x10ffff);

/** `text` less what XML cannot carry (iterating a string yields a lone surrogate as a character of its own). */
export const carried = (text: string) => [...text].filter((ch) => isXmlChar(ch.codePointAt(0)!)).join('');

/**
 * A parser that gives text back exactly: attributes kept, no trimming, no numbers made of text, and character
 * references (`&#10;`) decoded. `arrays` names the elements always read as a list, so a second one shows.
 */
export const exactXmlParser = (arrays: string[] = []) =>
  new XMLParser({
    ignoreAttributes: false,
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    htmlEntities: true,
    isArray: (name) => arrays.includes(name),
  });
