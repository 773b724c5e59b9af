// Public API of @browsertask/bundle-fs: one read-only view over a bundle directory or zip/jar.
export { openBundle } from './open-bundle.js';
export { DirectoryBundle } from './directory-bundle.js';
export { ZipBundle } from './zip-bundle.js';
export { DEFAULT_BUNDLE_LIMITS } from './limits.js';
export { globToRegExp, matchGlob } from './glob.js';
export { normalizeBundlePath, unsafePathReason } from './bundle-path.js';
export { BundleError, isBundleError, type BundleErrorCode } from './errors.js';
export { noopLogger, type Logger } from './logger.js';
export type {
  Bundle,
  BundleDescription,
  BundleFileStat,
  BundleKind,
  BundleLimits,
  OpenBundleOptions,
} from './types.js';
