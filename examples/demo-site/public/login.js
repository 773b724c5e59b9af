// Demo sign-in, entirely client-side (this site is static; it is not real authentication).
// The page holds only the SHA-256 of the demo password (README.md names it), never the
// password itself: a recipe types the password from a secret, the page hashes what was
// typed and compares. On success it sets the session cookie `demo_session=<user>` for a
// year (a persistent cookie, so a persistent browser profile keeps it across restarts)
// and opens account.html. Cookies are per host, not per port: a new port keeps the session.
(function () {
  var PASSWORD_SHA256 = '9dca666eb54730714630d1519264a7bf1eeaad00b8f2edc90d3ecbfad928d163';
  var form = document.getElementById('login');
  var error = document.getElementById('login-error');

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), function (b) {
      return b.toString(16).padStart(2, '0');
    }).join('');
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var user = document.getElementById('user').value.trim();
    var typed = document.getElementById('password').value;
    crypto.subtle.digest('SHA-256', new TextEncoder().encode(typed)).then(function (digest) {
      if (user === '' || hex(digest) !== PASSWORD_SHA256) {
        error.hidden = false;
        document.body.setAttribute('data-login', 'failed');
        return;
      }
      document.cookie =
        'demo_session=' + encodeURIComponent(user) + '; max-age=31536000; path=/; SameSite=Lax';
      window.location.href = 'account.html';
    });
  });
})();
