import type { BundleLimits } from './types.js';

/** The limits a bundle gets when {@link OpenBundleOptions} leaves them out. */
export const DEFAULT_BUNDLE_LIMITS: Readonly<BundleLimits> = Object.freeze({
  maxEntries: 10_000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxFileBytes: 64 * 1024 * 1024,
  maxCompressionRatio: 100,
  compressionRatioMinBytes: 1024 * 1024,
});
