// @ts-check
// The events page's only script (GET /dashboard/static/live-events.js, under the page's CSP nonce). Without it the
// page is complete as rendered; with it, an EventSource prepends each streamed row (a changed row replaces its older
// copy). The browser resumes a dropped stream itself with `Last-Event-ID`; when it gives up (the server answered an
// error), the script opens a new one after the last id it saw.
(() => {
  const table = /** @type {HTMLTableElement | null} */ (document.getElementById('live-events'));
  const status = /** @type {HTMLElement} */ (document.getElementById('live-status'));
  const announce = document.getElementById('live-announce');
  if (!table || !window.EventSource) return;
  const body = table.tBodies[0];
  let last = table.dataset.cursor ?? '';
  const open = () => {
    const url = new URL(table.dataset.stream ?? '', location.href);
    url.searchParams.set('after', last);
    const source = new EventSource(url);
    source.onopen = () => {
      status.textContent = 'live';
      status.className = 'done';
    };
    source.onmessage = (m) => {
      /** @type {{ kind: string, html: string }} */
      const d = JSON.parse(m.data);
      if (m.lastEventId) last = m.lastEventId;
      const tpl = document.createElement('template');
      tpl.innerHTML = d.html.trim();
      const row = /** @type {HTMLTableRowElement} */ (tpl.content.firstElementChild);
      for (const old of body.querySelectorAll('tr')) {
        if (old.classList.contains('empty') || (old.dataset.kind === d.kind && old.dataset.eventId === row.dataset.eventId)) old.remove();
      }
      body.prepend(row);
      // Screen readers hear each new or changed event (the page's aria-live region), not only sighted users.
      if (announce)
        announce.textContent = (
          `New ${d.kind === 'sdk' ? 'SDK' : 'purchase'} ` + `event: ${row.cells[2]?.textContent ?? ''} ${row.cells[5]?.textContent ?? ''}`
        ).trim();
      table.dataset.cursor = last;
    };
    source.onerror = () => {
      status.textContent = 'reconnecting…';
      status.className = 'open';
      if (source.readyState === EventSource.CLOSED) setTimeout(open, 1000);
    };
  };
  open();
})();
