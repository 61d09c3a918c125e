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
