// Progressive enhancement only: every page works without this file.
// Elements with data-confirm ask before their form is submitted.
document.addEventListener('submit', (event) => {
  const form = event.target;
  const message = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
  if (message && !window.confirm(message)) event.preventDefault();
});
// Closes an open user menu when clicking elsewhere.
document.addEventListener('click', (event) => {
  for (const menu of document.querySelectorAll('details.user-menu[open]')) {
    if (!menu.contains(event.target)) menu.removeAttribute('open');
  }
});
