import { createHash } from 'node:crypto';
import { ACCOUNT_CSS, ACCOUNT_JS, IDKIT_JS } from './assets-account.js';

/**
 * The site's only two static files, kept as strings in the build (no file copying, no static-file plugin):
 * the style sheet and a small script that only enhances pages that work without it. Their URLs carry a
 * hash of their content, so they are cached for a year and a new build is fetched at once.
 */
const CSS = `
:root{--ink:#1a1a1a;--muted:#4a4a4a;--paper:#fff;--rule:#d6d6d6;--accent:#0b4f8a;--accent-ink:#fff;--soft:#f3f5f8;--ok:#1d5e2b;--warn:#7a4b00;--bad:#8f1d1d;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",sans-serif;line-height:1.5;color:var(--ink);background:var(--paper)}
*{box-sizing:border-box}
body{margin:0}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid #e3a008;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--accent);color:var(--accent-ink);padding:.5rem 1rem;z-index:2}
.skip:focus{left:0}
.masthead{border-bottom:1px solid var(--rule);background:var(--soft)}
.masthead .bar{max-width:72rem;margin:0 auto;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;justify-content:space-between}
.brand{font-size:1.5rem;font-weight:700;color:var(--ink);text-decoration:none;font-family:Georgia,"Times New Roman",serif}
.tagline{margin:0;color:var(--muted);font-size:.9rem}
nav ul,.tabs,.langs,.rooms,.pager,.chips{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem .75rem}
.sections{max-width:72rem;margin:0 auto;padding:0 1rem .5rem}
.sections a{display:inline-block;padding:.25rem 0}
[aria-current]{font-weight:700;color:var(--ink)}
.langs a{font-size:.9rem}
.langs-menu{position:relative}
.langs-menu summary{cursor:pointer;font-size:.9rem;color:var(--accent);padding:.25rem 0}
.langs-menu[open] nav{position:absolute;right:0;top:100%;z-index:3;background:var(--paper);border:1px solid var(--rule);border-radius:.25rem;padding:.5rem .75rem;box-shadow:0 2px 6px rgba(0,0,0,.15)}
.langs-menu .langs{flex-direction:column;white-space:nowrap}
details.reference{margin:.25rem 0;font-size:.875rem}
details.reference summary{cursor:pointer;color:var(--muted)}
.bot{text-decoration:underline dotted;text-underline-offset:.2em}
dl.facts.status{grid-template-columns:1fr}
dl.facts.status dd{margin:0 0 .5rem}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-family:Georgia,"Times New Roman",serif;font-size:2rem;line-height:1.2;margin:.5rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:2rem 0 .75rem;border-bottom:1px solid var(--rule);padding-bottom:.25rem}
h3{font-size:1.05rem;margin:1rem 0 .25rem;overflow-wrap:anywhere}
.tabs a,.chips a{display:inline-block;padding:.35rem .75rem;border:1px solid var(--rule);border-radius:999px;text-decoration:none}
.tabs a[aria-current],.chips a[aria-current]{background:var(--accent);color:var(--accent-ink);border-color:var(--accent)}
.cards{list-style:none;margin:0;padding:0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(min(100%,20rem),1fr))}
.card{border:1px solid var(--rule);border-radius:.5rem;padding:1rem;background:var(--paper);min-width:0}
.card p{margin:.25rem 0;overflow-wrap:anywhere}
.meta{color:var(--muted);font-size:.875rem}
.badge{display:inline-block;border-radius:.25rem;padding:0 .4rem;font-size:.8rem;font-weight:600;background:var(--soft);color:var(--ink);border:1px solid var(--rule)}
.badge.GRADUATED,.badge.VERIFIED,.badge.CLEAR,.badge.ALLOW,.badge.ACCEPTED{color:var(--ok);border-color:var(--ok)}
.badge.CONTESTED,.badge.DISPUTED,.badge.QUARANTINE,.badge.MEDIUM{color:var(--warn);border-color:var(--warn)}
.badge.UNDER_REVIEW,.badge.RETRACTED,.badge.UNRELIABLE,.badge.BLOCK,.badge.HIGH,.badge.REJECTED{color:var(--bad);border-color:var(--bad)}
.layout{display:grid;gap:2rem;grid-template-columns:minmax(0,1fr)}
@media (min-width:60rem){.layout{grid-template-columns:minmax(0,2fr) minmax(0,1fr)}}
.story-body{font-family:Georgia,"Times New Roman",serif;font-size:1.1rem;white-space:pre-line;overflow-wrap:anywhere}
.lede{font-size:1.15rem;color:var(--muted);overflow-wrap:anywhere}
.panel{background:var(--soft);border-radius:.5rem;padding:1rem;overflow-wrap:anywhere}
.panel p{margin:.4rem 0}
.panel h2:first-child{margin-top:0}
dl.facts{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.925rem}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--rule);vertical-align:top}
th{background:var(--soft)}
code,.hash{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem;overflow-wrap:anywhere;word-break:break-all}
ol.list,ul.list{padding-left:1.25rem}
ol.list li,ul.list li{margin:.4rem 0;overflow-wrap:anywhere}
form.filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;margin:0 0 1rem}
form.filters label{display:flex;flex-direction:column;font-size:.875rem;font-weight:600;gap:.2rem}
input,select,button{font:inherit;padding:.4rem .5rem;border:1px solid #767676;border-radius:.25rem;background:var(--paper);color:var(--ink);max-width:100%}
button,.button{background:var(--accent);color:var(--accent-ink);border-color:var(--accent);cursor:pointer;text-decoration:none;display:inline-block;padding:.4rem .9rem;border-radius:.25rem}
.more{margin:1.5rem 0;text-align:center}
ins{background:#d7f5dd;color:#0d3b17;text-decoration:underline}
del{background:#fbe0e0;color:#5c0f0f;text-decoration:line-through}
.diff-lines{list-style:none;padding:0}
.diff-lines li{padding:.15rem .4rem;overflow-wrap:anywhere}
@media (max-width:40rem){
.tagline{display:none}
.masthead .bar{padding:.4rem 1rem;flex-wrap:nowrap}
.brand{font-size:1.25rem}
.sections{padding:0 1rem .25rem}
.sections ul,.tabs,.chips{flex-wrap:nowrap;overflow-x:auto;white-space:nowrap;padding:.2rem .2rem .3rem}
main{padding:.5rem 1rem}
h1{font-size:1.5rem;margin:.25rem 0 .5rem}
h2{font-size:1.1rem;margin:.75rem 0 .5rem}
.tabs a,.chips a{padding:.2rem .65rem}
.cards{gap:.75rem}
.card{padding:.75rem}
.card h3{margin-top:0}
.card p{margin:.15rem 0}
}
footer{border-top:1px solid var(--rule);margin-top:3rem;padding:1rem;color:var(--muted);font-size:.875rem;text-align:center}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

// Progressive enhancement only: "more" links load the next page into the list in place (each link still
// works as a plain link without JavaScript), and focus moves to the first new item for keyboard readers.
const JS = `
document.addEventListener('click', async (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[data-more]') : null;
  if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const list = document.getElementById(link.getAttribute('data-more'));
  if (!list) return;
  event.preventDefault();
  link.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(link.href, { headers: { accept: 'text/html' } });
    if (!response.ok) throw new Error(String(response.status));
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const items = page.getElementById(list.id);
    const next = page.querySelector('a[data-more="' + list.id + '"]');
    let first = null;
    for (const item of Array.from(items ? items.children : [])) {
      const adopted = document.importNode(item, true);
      list.appendChild(adopted);
      first = first || adopted;
    }
    if (next) link.href = next.href; else link.closest('.more').remove();
    const target = first && first.querySelector('a');
    if (target) target.focus();
  } catch {
    window.location.href = link.href;
  } finally {
    link.removeAttribute('aria-busy');
  }
});
`;

// The newsroom's icon (a folded newspaper), so browsers find one without asking for /favicon.ico.
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b4f8a"/><path d="M8 9h16v14H8z" fill="#fff"/><path d="M11 12h10M11 15h10M11 18h6" stroke="#0b4f8a" stroke-width="2"/></svg>`;

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

export const ASSETS = {
  css: { path: `/assets/site-${hash(CSS + ACCOUNT_CSS)}.css`, body: CSS + ACCOUNT_CSS, type: 'text/css; charset=utf-8' },
  js: { path: `/assets/site-${hash(JS)}.js`, body: JS, type: 'text/javascript; charset=utf-8' },
  idkit: { path: `/assets/idkit-${hash(IDKIT_JS)}.js`, body: IDKIT_JS, type: 'text/javascript; charset=utf-8' },
  worldId: { path: `/assets/world-id-${hash(ACCOUNT_JS)}.js`, body: ACCOUNT_JS, type: 'text/javascript; charset=utf-8' },
  icon: { path: `/assets/icon-${hash(ICON)}.svg`, body: ICON, type: 'image/svg+xml' },
} as const;

/** The site's pages load nothing but their own style sheet and script, and fetch nothing but the site. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every site answer (pages, error pages, the 404 page of an unknown path). */
export const SITE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
} as const;
