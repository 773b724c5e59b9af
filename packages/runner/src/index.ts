// Public API of @browsertask/runner: filled in by its issue; see README.md.
export {};
