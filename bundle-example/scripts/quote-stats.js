// A js step module: a function body run in the page. arguments[0] selects the rows,
// arguments[1] the author inside a row. Returns { total, byAuthor }.
const rows = Array.from(document.querySelectorAll(arguments[0]));
const byAuthor = {};
for (const row of rows) {
  const author = row.querySelector(arguments[1])?.textContent.trim() ?? 'unknown';
  byAuthor[author] = (byAuthor[author] ?? 0) + 1;
}
return { total: rows.length, byAuthor };
