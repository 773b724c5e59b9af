// Public API of @browsertask/secrets: filled in by its issue; see README.md.
export {};
