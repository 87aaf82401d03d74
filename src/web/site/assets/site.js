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
