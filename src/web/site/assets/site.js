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
    if (next) link.href = next.href;
    else link.closest('.more').remove();
    const target = first && first.querySelector('a');
    if (target) target.focus();
  } catch {
    window.location.href = link.href;
  } finally {
    link.removeAttribute('aria-busy');
  }
});

// The language menu closes on Escape and gives the focus back to its button.
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  const menu = event.target instanceof Element ? event.target.closest('details.langs-menu[open]') : null;
  if (!menu) return;
  menu.open = false;
  menu.querySelector('summary').focus();
});

// Times written "3 hours ago" when the page was made: said again from now (a page may come from the read cache).
(() => {
  const steps = [
    ['second', 60],
    ['minute', 60],
    ['hour', 24],
    ['day', 30],
    ['month', 12],
    ['year', Infinity],
  ];
  let format;
  try {
    format = new Intl.RelativeTimeFormat(document.documentElement.lang || 'en', { numeric: 'auto' });
  } catch {
    return;
  }
  const now = Date.now();
  for (const time of document.querySelectorAll('time[data-ago]')) {
    let amount = Math.max(0, (now - Date.parse(time.getAttribute('datetime'))) / 1000);
    if (!Number.isFinite(amount)) continue;
    for (const [unit, size] of steps) {
      if (amount < size) {
        time.textContent = format.format(-Math.floor(amount), unit);
        break;
      }
      amount /= size;
    }
  }
})();
