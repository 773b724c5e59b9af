// Public API of @browsertask/window-pool: filled in by its issue; see README.md.
export {};
