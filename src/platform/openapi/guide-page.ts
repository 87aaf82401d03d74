import { createHash } from 'node:crypto';
import { Marked } from 'marked';

/**
 * A guide of docs/ (markdown, written in this repository) as an HTML page beside Swagger UI: rendered once at
 * start with marked, with a small style sheet of its own (no inline style or script, so it passes a strict CSP).
 */
const CSS = `body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.55;color:#1a1a1a;background:#fff}
main{max-width:52rem;margin:0 auto;padding:1rem 1.25rem 3rem}
nav{font-size:.9rem;margin:.5rem 0 1.5rem}
a{color:#0b4f8a}
h1{font-size:1.9rem;line-height:1.2}
h2{margin-top:2.2rem;border-bottom:1px solid #d6d6d6;padding-bottom:.25rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:#f3f5f8;padding:.05rem .25rem;border-radius:.2rem;overflow-wrap:anywhere}
p,li{overflow-wrap:anywhere}
pre{background:#f3f5f8;border:1px solid #d6d6d6;border-radius:.35rem;padding:.75rem;overflow:auto}
pre code{background:none;padding:0;overflow-wrap:normal}
table{border-collapse:collapse}
th,td{border:1px solid #d6d6d6;padding:.3rem .5rem;text-align:left;vertical-align:top}`;

export const GUIDE_CSS = { path: `/docs/guide-${createHash('sha256').update(CSS).digest('hex').slice(0, 12)}.css`, body: CSS };

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The page of a markdown guide: its first heading is the title; links back to the API reference and the markdown. */
export function guidePage(markdown: string, markdownPath: string): string {
  const title = /^# (.+)$/m.exec(markdown)?.[1] ?? 'Guide';
  // a code block scrolls sideways on a phone: it takes the keyboard focus so it can be scrolled without a mouse
  const body = new Marked({ gfm: true }).parse(markdown, { async: false }).replaceAll('<pre>', '<pre tabindex="0">');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<link rel="stylesheet" href="${GUIDE_CSS.path}">
</head>
<body>
<main>
<nav aria-label="Documentation"><a href="/docs">API reference</a> · <a href="${escape(markdownPath)}">This guide as markdown</a></nav>
${body}
</main>
</body>
</html>
`;
}
