// @ts-check
// The join page's only script (GET /dashboard/static/join-page.js, under the page's CSP nonce): posts the form as
// JSON to the join endpoint (the form's data-endpoint) and shows the code, or the reason it failed. The words come
// from the page's JSON block.
(function () {
  var form = /** @type {HTMLFormElement} */ (document.getElementById('join-form'));
  /** @type {{ fields: Record<string, string>, joined: string, alreadyJoined: string, invalid: string, errors: Record<string, string>, failed: string }} */
  var text = JSON.parse(document.getElementById('join-text')?.textContent ?? '{}');
  var error = /** @type {HTMLElement} */ (document.getElementById('join-error'));
  var button = /** @type {HTMLButtonElement} */ (form.querySelector('button'));
  var fields = /** @type {Record<string, HTMLInputElement>} */ (/** @type {unknown} */ (form.elements));
  /** @param {string} name */
  function value(name) {
    var v = fields[name].value.trim();
    return v === '' ? undefined : v;
  }
  /** @param {string} message */
  function showError(message) {
    error.textContent = message;
    error.hidden = false;
  }
  /** @param {{ loc?: (string | number)[] }} problem */
  function fieldName(problem) {
    var f = problem.loc && problem.loc[problem.loc.length - 1];
    return text.fields[String(f)] || String(f);
  }
  /** @param {Response} res @returns {Promise<{ status: number, data: any }>} */
  function read(res) {
    return res.text().then(function (raw) {
      var data = null;
      try {
        data = JSON.parse(raw);
      } catch {
        data = null;
      }
      return { status: res.status, data: data };
    });
  }
  /** @param {{ status: number, data: any }} answer */
  function show(answer) {
    if ((answer.status === 200 || answer.status === 201) && answer.data) {
      form.hidden = true;
      /** @type {HTMLElement} */ (document.getElementById('join-done-text')).textContent =
        answer.status === 201 ? text.joined : text.alreadyJoined;
      /** @type {HTMLElement} */ (document.getElementById('join-code')).textContent = answer.data.code;
      /** @type {HTMLElement} */ (document.getElementById('join-done')).hidden = false;
      return;
    }
    button.disabled = false;
    if (answer.status === 422 && answer.data && Array.isArray(answer.data.detail)) {
      showError(text.invalid + ' ' + answer.data.detail.map(fieldName).join(', '));
    } else {
      showError(text.errors[answer.status] || text.failed);
    }
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    error.hidden = true;
    /** @type {Record<string, string | number | undefined>} */
    var body = { name: value('name'), email: value('email') };
    /** @type {Record<string, string | undefined>} */
    var optional = { social_handle: value('social_handle'), code: value('code') };
    Object.keys(optional).forEach(function (k) {
      if (optional[k]) body[k] = optional[k];
    });
    var followers = value('follower_count');
    if (followers) body.follower_count = Number(followers);
    var token = new URLSearchParams(window.location.search).get('invitation_token');
    if (token) body.invitation_token = token;
    button.disabled = true;
    fetch(/** @type {string} */ (form.getAttribute('data-endpoint')), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    })
      .then(read)
      .then(show)
      .catch(function () {
        button.disabled = false;
        showError(text.failed);
      });
  });
})();
