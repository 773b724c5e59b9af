// Loop condition module: true when the page shows a signed-in session.
return document.body.dataset.session === 'signed-in';
