// @ts-check
// The setup page's "Send a test purchase" (POST /api/apps/{app_id}/test-integration, the agent's test-integration):
// without this script the form posts and the page comes back with the result in the step; with it the page stays
// and lists the run's progress: sent, then what the pipeline did (the workflow, the purchase event, the creator).
(() => {
  const button = /** @type {HTMLButtonElement | null} */ (document.getElementById('test-purchase'));
  const list = /** @type {HTMLOListElement | null} */ (document.getElementById('test-purchase-progress'));
  const form = button?.form;
  if (!button || !list || !form) return;
  /** @param {string} text @param {string} [cls] */
  const line = (text, cls) => {
    const li = document.createElement('li');
    li.textContent = text;
    if (cls) li.className = cls;
    list.append(li);
    return li;
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    button.disabled = true;
    list.hidden = false;
    list.replaceChildren();
    const started = Date.now();
    const waiting = line('Sending a sandbox purchase with a creator code through the pipeline…');
    const timer = setInterval(() => {
      waiting.textContent =
        `Sending a sandbox purchase with a creator code through ` + `the pipeline… ${Math.round((Date.now() - started) / 1000)} s`;
    }, 1000);
    const csrf = /** @type {HTMLInputElement} */ (form.elements.namedItem('csrf')).value;
    fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrf },
      body: '{}',
    })
      .then(async (res) => {
        /** @type {Record<string, any>} */
        const r = await res.json().catch(() => ({}));
        clearInterval(timer);
        if (!res.ok) {
          line(`Not done: ${typeof r.detail === 'string' ? r.detail : res.statusText}`, 'error');
          return;
        }
        waiting.textContent = `Purchase sent by test user ${r.app_user_id} with code ${r.referral_code}.`;
        line(`Workflow ${r.workflow_id} ran; purchase event ${r.event_id ?? 'none'} recorded.`);
        line(
          r.passed
            ? `Credited to ${r.referral_code} (conversion ${r.conversion_id}): the pipeline works.`
            : `Not credited: ${r.error ?? 'unknown reason'}.`,
          r.passed ? 'done' : 'error',
        );
        const events = document.querySelector('a[href*="/events"]');
        if (events) {
          const li = line('');
          const a = document.createElement('a');
          a.href = /** @type {HTMLAnchorElement} */ (events).href;
          a.textContent = 'See it on live events';
          li.append(a);
        }
      })
      .catch(() => {
        clearInterval(timer);
        line('The request failed; reload the page and try again.', 'error');
      })
      .finally(() => {
        button.disabled = false;
      });
  });
})();
