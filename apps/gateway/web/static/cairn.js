// Progressive enhancement only: every page works without this file.
// Elements with data-confirm ask before their form is submitted.
document.addEventListener('submit', (event) => {
  const form = event.target;
  const message = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
  if (message && !window.confirm(message)) event.preventDefault();
});
// Closes an open user or create (+) menu when clicking elsewhere.
document.addEventListener('click', (event) => {
  for (const menu of document.querySelectorAll('details.user-menu[open], details.create-menu[open]')) {
    if (!menu.contains(event.target)) menu.removeAttribute('open');
  }
});
// A merge box with data-pull-merge-box-reloading-interval (a check or an update is pending) replaces itself from its
// fragment URL at that interval, until the server's box no longer carries the attribute.
const reloadMergeBox = () => {
  const box = document.getElementById('merge-box');
  const ms = Number(box?.dataset.pullMergeBoxReloadingInterval);
  if (!box || !ms) return;
  setTimeout(async () => {
    const res = await fetch(`${location.pathname.replace(/\/$/, '')}/merge_box`, { credentials: 'same-origin' }).catch(() => null);
    if (res && !res.ok && res.status < 500) return; // gone or forbidden now: stop asking
    const next = res?.ok ? new DOMParser().parseFromString(await res.text(), 'text/html').getElementById('merge-box') : null;
    if (next) box.replaceWith(document.adoptNode(next));
    reloadMergeBox();
  }, ms);
};
reloadMergeBox();
/* review: diff expanders and inline line-comment forms (without this file both are plain links to their pages) */
const fetchDocument = async (url) => {
  const res = await fetch(url, { credentials: 'same-origin' }).catch(() => null);
  return res && res.ok ? new DOMParser().parseFromString(await res.text(), 'text/html') : null;
};
document.addEventListener('click', async (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[data-excerpt], a.line-comment') : null;
  const row = link?.closest('tr');
  if (!link || !row || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  if (link.dataset.excerpt) {
    // The hidden lines replace the expander; a failure leaves the link to follow.
    const doc = await fetchDocument(link.dataset.excerpt);
    const rows = doc ? [...doc.querySelectorAll('tbody > tr')] : null;
    if (rows) row.replaceWith(...rows.map((r) => document.adoptNode(r)));
    else location.href = link.href;
    return;
  }
  const open = row.nextElementSibling?.classList.contains('line-comment-row') ? row.nextElementSibling : null;
  if (open) return open.querySelector('textarea')?.focus();
  const doc = await fetchDocument(link.href);
  const form = doc?.querySelector('form.line-comment-form');
  if (!form) return void (location.href = link.href);
  const tr = document.createElement('tr');
  tr.className = 'line-comment-row';
  const td = tr.appendChild(document.createElement('td'));
  td.colSpan = row.children.length;
  td.appendChild(document.adoptNode(form));
  row.after(tr);
  form.querySelector('textarea')?.focus();
});
