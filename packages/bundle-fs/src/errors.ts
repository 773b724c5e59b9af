/** Stable error codes of @browsertask/bundle-fs; consumers branch on these, never on messages. */
export type BundleErrorCode =
  /** The bundle path does not exist. */
  | 'ERR_BUNDLE_NOT_FOUND'
  /** The bundle path is neither a directory nor a zip/jar archive, or an entry uses a feature we do not read (encryption, an unknown compression method). */
  | 'ERR_BUNDLE_UNSUPPORTED'
  /** The archive cannot be parsed: not a zip, truncated, inconsistent sizes or CRC. */
  | 'ERR_BUNDLE_CORRUPT'
  /** A path is absolute, contains `..`, a backslash or NUL, or is a zip symlink entry (zip-slip). */
  | 'ERR_BUNDLE_UNSAFE_PATH'
  /** A symbolic link in a directory bundle resolves outside the bundle root. */
  | 'ERR_BUNDLE_SYMLINK_ESCAPE'
  /** A limit was exceeded: entries, total or single-file size, compression ratio (zip bomb). */
  | 'ERR_BUNDLE_LIMIT'
  /** The requested file is not in the bundle. */
  | 'ERR_BUNDLE_FILE_NOT_FOUND'
  /** The archive was rewritten on disk while a read was in flight; retry the read. */
  | 'ERR_BUNDLE_CHANGED'
  /** The bundle was closed. */
  | 'ERR_BUNDLE_CLOSED'
  /** The operation was aborted through its `signal`. */
  | 'ERR_BUNDLE_ABORTED'
  /** A glob pattern given to `list()` is malformed (for example an unclosed `{`). */
  | 'ERR_BUNDLE_INVALID_GLOB';

/** The one error class of @browsertask/bundle-fs. */
export class BundleError extends Error {
  /** Stable machine-readable code. */
  readonly code: BundleErrorCode;
  /** The bundle-relative path (or raw archive entry name) the error is about, when there is one. */
  readonly entry: string | undefined;

  /** Creates an error with a stable `code`, an actionable message and an optional cause and entry. */
  constructor(
    code: BundleErrorCode,
    message: string,
    options?: { cause?: unknown; entry?: string | undefined },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BundleError';
    this.code = code;
    this.entry = options?.entry;
  }
}

/** True when `err` is a {@link BundleError}, optionally with the given code. */
export function isBundleError(err: unknown, code?: BundleErrorCode): err is BundleError {
  return err instanceof BundleError && (code === undefined || err.code === code);
}
