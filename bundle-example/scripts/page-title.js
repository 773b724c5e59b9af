// Returns the page title.
return document.title;
