// Shows the account when the demo_session cookie (set by login.js) is present, else a
// "please sign in" element. body[data-session] is `signed-in` or `signed-out` once rendered.
(function () {
  var match = /(?:^|;\s*)demo_session=([^;]*)/.exec(document.cookie);
  var user = match ? decodeURIComponent(match[1]) : '';
  var status = document.getElementById('status');
  if (user !== '') {
    status.textContent = 'Signed in as ' + user;
    var profile = document.getElementById('profile');
    profile.querySelector('.user').textContent = user;
    profile.querySelector('.email').textContent =
      user.toLowerCase().replace(/\s+/g, '.') + '@example.com';
    document.getElementById('account').hidden = false;
    document.getElementById('signout').addEventListener('click', function () {
      document.cookie = 'demo_session=; max-age=0; path=/; SameSite=Lax';
      window.location.reload();
    });
  } else {
    status.textContent = 'Please sign in';
    document.getElementById('signin-required').hidden = false;
    // Signed out: the account data is not in the page at all.
    document.getElementById('account').remove();
  }
  document.body.setAttribute('data-session', user !== '' ? 'signed-in' : 'signed-out');
})();
