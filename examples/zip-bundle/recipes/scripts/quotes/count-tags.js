// A js step module: counts the tags of the page's quotes. Returns { tag: count }, keys sorted.
const counts = {};
for (const t of document.querySelectorAll('.quote .tag')) {
  const tag = t.textContent.trim();
  counts[tag] = (counts[tag] ?? 0) + 1;
}
return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
