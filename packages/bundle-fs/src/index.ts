// Public API of @browsertask/bundle-fs: filled in by its issue; see README.md.
export {};
