// @ts-check
// The join page's only script (GET /dashboard/static/join-page.js, under the page's CSP nonce): posts the form as
// JSON to the join endpoint (the form's data-endpoint) and shows where joining leads (the referral link and code, each
// with a copy button, the link's QR code drawn from the answer's module path, the creator portal), or the reason it
// failed. The words come from the page's JSON block.
(function () {
  var form = /** @type {HTMLFormElement} */ (document.getElementById('join-form'));
  /**
   * @type {{ fields: Record<string, string>, joined: string, alreadyJoined: string, invalid: string, errors: Record<string, string>,
   * failed: string, done: Record<string, string> }}
   */
  var text = JSON.parse(document.getElementById('join-text')?.textContent ?? '{}');
  var error = /** @type {HTMLElement} */ (document.getElementById('join-error'));
  var button = /** @type {HTMLButtonElement} */ (form.querySelector('button'));
  var fields = /** @type {Record<string, HTMLInputElement>} */ (/** @type {unknown} */ (form.elements));
  var SVG = 'http://www.w3.org/2000/svg';
  /** @param {string} id */
  function el(id) {
    return /** @type {HTMLElement} */ (document.getElementById(id));
  }
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
  /** The QR code of the link: the answer's path of dark modules in a size x size square (white behind). */
  /** @param {{ size: number, path: string }} qr */
  function drawQr(qr) {
    var svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + qr.size + ' ' + qr.size);
    svg.setAttribute('class', 'qr');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', text.done.qr);
    svg.setAttribute('shape-rendering', 'crispEdges');
    var rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('width', String(qr.size));
    rect.setAttribute('height', String(qr.size));
    rect.setAttribute('fill', '#fff');
    var path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', qr.path);
    path.setAttribute('fill', '#000');
    svg.appendChild(rect);
    svg.appendChild(path);
    el('join-qr').replaceChildren(svg);
  }
  // Copy buttons: the link's or the code's text; where the clipboard is refused the text is selected for a manual copy.
  document.querySelectorAll('#join-done button[data-copy]').forEach(function (node) {
    var copy = /** @type {HTMLButtonElement} */ (node);
    copy.addEventListener('click', function () {
      var target = el(copy.getAttribute('data-copy') || '');
      var done = function () {
        copy.textContent = text.done.copied;
        setTimeout(function () {
          copy.textContent = text.done.copy;
        }, 4000);
      };
      var byHand = function () {
        var range = document.createRange();
        range.selectNodeContents(target);
        var selection = window.getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
        copy.textContent = text.done.copyByHand;
      };
      if (navigator.clipboard) navigator.clipboard.writeText(target.textContent || '').then(done, byHand);
      else byHand();
    });
  });
  /** @param {{ status: number, data: any }} answer */
  function show(answer) {
    if ((answer.status === 200 || answer.status === 201) && answer.data) {
      form.hidden = true;
      el('join-done-text').textContent = answer.status === 201 ? text.joined : text.alreadyJoined;
      el('join-code').textContent = answer.data.code;
      var link = /** @type {HTMLAnchorElement} */ (el('join-link'));
      link.textContent = answer.data.referral_link;
      link.href = answer.data.referral_link;
      if (answer.data.referral_link_qr) drawQr(answer.data.referral_link_qr);
      el('join-mailed').textContent = answer.status === 201 ? text.done.mailed : '';
      el('join-done').hidden = false;
      el('join-done-text').focus();
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
