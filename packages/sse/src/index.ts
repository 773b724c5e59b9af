// Public API of @browsertask/sse: filled in by its issue; see README.md.
export {};
