// A js step module (a function body run in the page). arguments[0] selects the quotes,
// arguments[1] is the tag to keep. Returns [{ text, author }] of the matching quotes.
const tag = String(arguments[1]).toLowerCase();
return Array.from(document.querySelectorAll(arguments[0]))
  .filter((q) =>
    Array.from(q.querySelectorAll('.tag'), (t) => t.textContent.trim().toLowerCase()).includes(tag),
  )
  .map((q) => ({
    text: q.querySelector('.text')?.textContent.trim() ?? '',
    author: q.querySelector('.author')?.textContent.trim() ?? '',
  }));
