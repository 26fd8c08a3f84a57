// @ts-check
// Every dashboard page's script (GET /dashboard/static/dashboard.js, under the page's CSP nonce). The pages are
// complete without it; with it: a destructive button opens its confirm <dialog> instead of posting (the dialog's
// own form carries `confirmed=yes`; api/view-kit/confirm.tsx), copy buttons copy, and `<time data-local>` shows the
// viewer's time zone instead of the server's UTC.
(() => {
  document.addEventListener('submit', (e) => {
    const form = /** @type {HTMLFormElement} */ (e.target);
    const id = form.dataset.confirm;
    const dialog = id ? /** @type {HTMLDialogElement | null} */ (document.getElementById(id)) : null;
    if (!dialog || typeof dialog.showModal !== 'function') return;
    e.preventDefault();
    dialog.showModal();
  });
  for (const close of document.querySelectorAll('dialog [data-close]')) {
    close.addEventListener('click', () => /** @type {HTMLDialogElement} */ (close.closest('dialog')).close());
  }

  // Copy buttons (api/view-kit/ui.tsx CopyButton): the value of an input, or the text of any other element (a URL, a snippet).
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('button[data-copy]'))) {
    const target = document.getElementById(button.dataset.copy ?? '');
    if (!target || !navigator.clipboard) continue;
    const label = button.textContent;
    button.hidden = false;
    button.addEventListener('click', () => {
      const text = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ? target.value : (target.textContent ?? '');
      navigator.clipboard.writeText(text).then(
        () => {
          button.textContent = 'Copied';
        },
        () => {
          if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) target.select();
          button.textContent = 'Select and copy by hand (Ctrl+C)';
        },
      );
      setTimeout(() => {
        button.textContent = label;
      }, 4000);
    });
  }

  const formats = {
    datetime: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    date: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }),
  };
  const localise = (/** @type {ParentNode} */ root) => {
    for (const t of /** @type {NodeListOf<HTMLTimeElement>} */ (root.querySelectorAll('time[data-local]'))) {
      const d = new Date(t.dateTime);
      if (Number.isNaN(d.getTime()) || t.dataset.shown) continue;
      t.dataset.shown = 'local';
      t.title = t.textContent ?? '';
      t.textContent = (t.dataset.local === 'date' ? formats.date : formats.datetime).format(d);
    }
  };
  localise(document);
  // Rows the live events page adds later carry their own <time> elements.
  new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes) if (n instanceof Element) localise(n);
  }).observe(document.body, { childList: true, subtree: true });
})();
