// Public API of @browsertask/server: filled in by its issue; see README.md.
export {};
