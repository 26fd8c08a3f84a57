// The join page's only script: posts the form as JSON to the join endpoint (the form's data-endpoint) and shows
// the code, or the reason it failed. Static code: the words come from the page's JSON block, never spliced in.
export const JOIN_PAGE_SCRIPT = `
(function () {
  var form = document.getElementById('join-form');
  var text = JSON.parse(document.getElementById('join-text').textContent);
  var error = document.getElementById('join-error');
  var button = form.querySelector('button');
  function value(name) { var v = form.elements[name].value.trim(); return v === '' ? undefined : v; }
  function showError(message) { error.textContent = message; error.hidden = false; }
  function fieldName(problem) { var f = problem.loc && problem.loc[problem.loc.length - 1]; return text.fields[f] || String(f); }
  function read(res) {
    return res.text().then(function (raw) {
      var data = null;
      try { data = JSON.parse(raw); } catch (e) { data = null; }
      return { status: res.status, data: data };
    });
  }
  function show(answer) {
    if ((answer.status === 200 || answer.status === 201) && answer.data) {
      form.hidden = true;
      document.getElementById('join-done-text').textContent = answer.status === 201 ? text.joined : text.alreadyJoined;
      document.getElementById('join-code').textContent = answer.data.code;
      document.getElementById('join-done').hidden = false;
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
    var body = { name: value('name'), email: value('email') };
    var optional = { social_handle: value('social_handle'), code: value('code') };
    Object.keys(optional).forEach(function (k) { if (optional[k]) body[k] = optional[k]; });
    var followers = value('follower_count');
    if (followers) body.follower_count = Number(followers);
    var token = new URLSearchParams(window.location.search).get('invitation_token');
    if (token) body.invitation_token = token;
    button.disabled = true;
    fetch(form.getAttribute('data-endpoint'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    }).then(read).then(show).catch(function () { button.disabled = false; showError(text.failed); });
  });
})();
`;
