// A js step module (a function body run in the page): the session state account.html
// shows. Returns { signedIn, user }.
const signedIn = document.body.dataset.session === 'signed-in';
const status = document.getElementById('status')?.textContent ?? '';
return { signedIn, user: signedIn ? status.replace(/^Signed in as /, '') : null };
