import { createHash } from 'node:crypto';
import { CLUSTER_COLOURS } from './views/cartel-graph.js';

/** The console's style sheet, beside the site's (which it builds on): tables, code, forms, the graph. */
const CSS = `
.console main,.console .masthead .bar,.console .sections{max-width:80rem}
.console table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem;font-size:.925rem}
.console th,.console td{border-bottom:1px solid var(--rule);padding:.4rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
.console th{background:var(--soft)}
.console .num{text-align:right;font-variant-numeric:tabular-nums}
.console pre.json{background:var(--soft);border:1px solid var(--rule);padding:.75rem;overflow:auto;max-height:28rem;font-size:.85rem}
.console .console-form{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end;margin:.5rem 0 1rem}
.console .console-form.stacked{flex-direction:column;align-items:stretch;max-width:44rem}
.console .field{display:flex;flex-direction:column;margin:0;gap:.2rem}
.console .field small{color:var(--muted)}
.console input,.console select,.console textarea{font:inherit;padding:.35rem .5rem;border:1px solid #767676;border-radius:.25rem}
.console textarea{min-height:6rem}
.console button{font:inherit;padding:.4rem .9rem;border-radius:.25rem;border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);cursor:pointer}
.console button.link{background:none;border:none;color:var(--accent);padding:0;text-decoration:underline}
.console button.danger{background:var(--bad);border-color:var(--bad)}
.console .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:1rem;list-style:none;padding:0}
.console .cards li{border:1px solid var(--rule);border-radius:.5rem;padding:1rem}
.console .status-PENDING,.console .status-DRAFT,.console .tag-warn{color:var(--warn);font-weight:600}
.console .status-EXECUTED,.console .status-ACTIVE,.console .tag-ok{color:var(--ok);font-weight:600}
.console .status-CANCELLED,.console .status-REJECTED,.console .tag-bad{color:var(--bad);font-weight:600}
.console del{background:#fde2e2;color:#6b0d0d}
.console ins{background:#dcf2e0;color:#0d4a1c;text-decoration:none}
.console textarea.code{font-family:ui-monospace,monospace;font-size:.85rem}
.console article.card{margin:0 0 1.25rem}
.console .delivery-delivered{color:var(--ok);font-weight:600}
.console .delivery-retrying,.console .delivery-pending{color:var(--warn);font-weight:600}
.console .delivery-dead{color:var(--bad);font-weight:600}
.console .graph{max-width:100%;height:auto;border:1px solid var(--rule);border-radius:.5rem;background:#fff}
.console tr.member:target{outline:3px solid #e3a008;background:#fff8e1}
.console .legend{display:flex;flex-wrap:wrap;gap:.5rem 1rem;list-style:none;padding:0}
.console .swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:50%;vertical-align:middle;margin-right:.3rem}
${CLUSTER_COLOURS.map((colour, i) => `.console .swatch.c${i}{background:${colour}}`).join('\n')}
`;

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

export const CONSOLE_ASSETS = {
  css: { path: `/assets/console-${hash(CSS)}.css`, body: CSS, type: 'text/css; charset=utf-8' },
} as const;
