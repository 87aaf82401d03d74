import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The style of the account links, forms and their outcomes. */
export const ACCOUNT_CSS = `
.account ul{list-style:none;margin:0;padding:0;display:flex;gap:.75rem;align-items:center;white-space:nowrap}
@media (max-width:40rem){.masthead .bar{flex-wrap:wrap;gap:.25rem 1rem}.account{font-size:.9rem}}
form.inline{display:inline}
button.link{background:none;border:0;color:var(--accent);text-decoration:underline;padding:0;font:inherit}
.actions form{margin:.75rem 0}
.actions label,.actions legend{display:block;font-weight:600;margin:.5rem 0 .25rem}
.actions textarea,.actions select,.actions input:not([type]),main form input[name=topic],main form input[name=name],main form select{width:100%;max-width:40rem;font:inherit;padding:.4rem;border:1px solid var(--muted);border-radius:.25rem}
.actions fieldset{border:1px solid var(--rule);border-radius:.25rem;padding:.5rem 1rem}
.inline-forms{display:flex;flex-wrap:wrap;gap:.5rem}
.inline-forms form{margin:0}
.check{display:flex;gap:.5rem;align-items:flex-start}
.check label{font-weight:400;margin:0}
.flash{padding:.6rem 1rem;border-radius:.25rem;border:1px solid}
.flash.done{background:#e6f4ea;border-color:var(--ok);color:#0d3b17}
.flash.refused{background:#fbe0e0;border-color:var(--bad);color:#5c0f0f}
.dev-login{border-left:4px solid var(--warn)}
`;

/**
 * World ID in the page: the login step and the "prove that I am a unique person" boxes run World's IDKit
 * (served from this site) and fill the form's hidden proof fields with its result before the form is sent.
 */
export const ACCOUNT_JS = `
(() => {
  const kit = window.IDKit;
  if (!kit) return;
  const fill = (scope, result) => {
    for (const name of ['nullifier_hash', 'merkle_root', 'proof', 'verification_level'])
      scope.querySelector('input[name="' + name + '"]').value = result[name] || '';
  };
  const run = (appId, action, signal, scope, form) => {
    kit.init({ app_id: appId, action, signal, onSuccess: (result) => { fill(scope, result); form.submit(); } });
    kit.open();
  };
  const login = document.querySelector('[data-idkit-login]');
  if (login) {
    const form = login.closest('form');
    const start = () => run(login.dataset.appId, login.dataset.action, login.dataset.signal, login, form);
    form.addEventListener('submit', (event) => {
      if (!form.querySelector('input[name="proof"]').value) { event.preventDefault(); start(); }
    });
    start();
  }
  for (const box of document.querySelectorAll('[data-idkit-action]')) {
    box.hidden = false;
    const form = box.closest('form');
    form.addEventListener('submit', (event) => {
      if (!box.querySelector('input[name="prove"]').checked || box.querySelector('input[name="proof"]').value) return;
      let action = box.dataset.idkitAction;
      if (action === 'flag_high_severity') {
        const claim = form.querySelector('select[name="claimId"]').value;
        if (!claim || form.querySelector('select[name="severity"]').value !== 'HIGH') return;
        action += ':' + claim;
      }
      event.preventDefault();
      run(box.dataset.appId, action, '', box, form);
    });
  }
})();
`;

/** World's IDKit (its standalone browser bundle, @worldcoin/idkit-standalone), served from this origin. */
export const IDKIT_JS = readFileSync(createRequire(import.meta.url).resolve('@worldcoin/idkit-standalone'), 'utf8');

/**
 * The policy of the pages that run IDKit (the World ID login step, and a logged-in reader's pages when people
 * log in with World ID): scripts from this site only, as everywhere; IDKit's own injected styles, its QR code
 * (data: images) and World ID's bridge, which the World App answers through.
 */
export const WORLD_ID_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self' https://bridge.worldcoin.org",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
