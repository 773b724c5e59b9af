// Public API of @browsertask/recorder: filled in by its issue; see README.md.
export {};
