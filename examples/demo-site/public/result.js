// Fills the result card from the form's query string.
(function () {
  var params = new URLSearchParams(window.location.search);
  var card = document.getElementById('result');
  card.querySelector('.name').textContent = params.get('name') || '';
  card.querySelector('.email').textContent = params.get('email') || '';
  card.querySelector('.message').textContent = params.get('message') || '';
  var code = params.get('password') || '';
  card.querySelector('.access').textContent =
    code === '' ? 'none' : code === 'open-sesame' ? 'granted' : 'denied';
  card.setAttribute('data-ready', 'true');
})();
