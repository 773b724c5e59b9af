import type { Readable } from 'node:stream';
import type { Logger } from './logger.js';

/** Which backend serves a bundle. */
export type BundleKind = 'directory' | 'zip';

/** Size and modification time of one file in a bundle. */
export interface BundleFileStat {
  /** Size in bytes (uncompressed for archive entries). */
  size: number;
  /** Modification time in epoch milliseconds (a zip entry's DOS time has 2 s resolution). */
  mtimeMs: number;
  /**
   * Changes whenever the content may have changed, so a reader can skip re-reading files
   * whose fingerprint it has seen: size, mtime, ctime and inode for a directory file (ctime
   * catches tools that preserve mtime), size and CRC-32 for an archive entry.
   */
  fingerprint: string;
}

/** Facts about an opened bundle, for the start-up log line. */
export interface BundleDescription {
  /** `directory` or `zip`. */
  kind: BundleKind;
  /** Absolute path of the bundle directory or archive. */
  path: string;
  /** Number of files (directories not counted). */
  fileCount: number;
  /** Sum of the files' (uncompressed) sizes in bytes. */
  totalBytes: number;
  /** The current {@link Bundle.version} token. */
  version: string;
}

/**
 * One read-only view of a bundle directory or zip/jar archive read in place. Paths are
 * `/`-separated and relative to the bundle root; only regular files are visible (directories
 * are implied by their files). Every call sees the bundle as it is on disk now: a directory is
 * read live, an archive replaced on disk is re-opened on the next call.
 */
export interface Bundle extends AsyncDisposable {
  /** `directory` or `zip` (`.jar` archives are `zip`). */
  readonly kind: BundleKind;
  /** Absolute path of the bundle directory or archive. */
  readonly path: string;
  /**
   * Sorted relative paths of every file, or of those matching `glob` (see `globToRegExp`).
   * @throws {BundleError} `ERR_BUNDLE_INVALID_GLOB`, `ERR_BUNDLE_LIMIT`, `ERR_BUNDLE_SYMLINK_ESCAPE`, `ERR_BUNDLE_CORRUPT`.
   */
  list(glob?: string): Promise<string[]>;
  /**
   * The whole content of a file.
   * @throws {BundleError} `ERR_BUNDLE_FILE_NOT_FOUND`, `ERR_BUNDLE_UNSAFE_PATH`, `ERR_BUNDLE_SYMLINK_ESCAPE`, `ERR_BUNDLE_LIMIT`, `ERR_BUNDLE_CORRUPT`, `ERR_BUNDLE_CHANGED`.
   */
  readFile(path: string): Promise<Buffer>;
  /** A file decoded as UTF-8 (a leading byte-order mark is dropped). Throws like {@link Bundle.readFile}. */
  readText(path: string): Promise<string>;
  /**
   * A stream of a file's content; failures (same codes as {@link Bundle.readFile}) arrive as the
   * stream's `error`. An archive entry whose CRC or size does not match fails at its end.
   */
  createReadStream(path: string): Readable;
  /** Size and mtime of a file, or `undefined` when there is no such file. @throws {BundleError} `ERR_BUNDLE_UNSAFE_PATH`. */
  stat(path: string): Promise<BundleFileStat | undefined>;
  /** Whether a file exists. @throws {BundleError} `ERR_BUNDLE_UNSAFE_PATH`. */
  exists(path: string): Promise<boolean>;
  /**
   * A cheap opaque token that changes whenever any file changes, is added or removed
   * (directory: a stat walk of names, sizes and mtimes; archive: the archive file's identity,
   * size and times).
   */
  version(): Promise<string>;
  /** The facts the service logs at start-up ("opened zip bundle …"). */
  describe(): Promise<BundleDescription>;
  /** Stops accepting calls, waits for reads in flight, releases file handles. Idempotent. */
  close(): Promise<void>;
  /** Like {@link Bundle.close} but ends streams in flight at once. Idempotent. */
  destroy(): void;
}

/** Limits applied when opening and reading a bundle (defaults in {@link DEFAULT_BUNDLE_LIMITS}). */
export interface BundleLimits {
  /** Most files (and archive entries) a bundle may hold. @default 10000 */
  maxEntries: number;
  /** Most bytes all files may add up to, uncompressed. @default 268435456 (256 MiB) */
  maxTotalBytes: number;
  /** Largest single file, uncompressed. @default 67108864 (64 MiB) */
  maxFileBytes: number;
  /** Highest uncompressed/compressed ratio of a large archive entry (zip bomb guard). @default 100 */
  maxCompressionRatio: number;
  /** Entries at most this big (uncompressed) are exempt from the ratio limit. @default 1048576 (1 MiB) */
  compressionRatioMinBytes: number;
}

/** Options of {@link openBundle}. */
export interface OpenBundleOptions extends Partial<BundleLimits> {
  /** Receives debug/info lines (archive re-opened, …). @default noopLogger */
  logger?: Logger;
  /** Aborts opening (`ERR_BUNDLE_ABORTED`). */
  signal?: AbortSignal;
}
