import { sep } from 'node:path';
import { BundleError } from '../errors.js';

/** True when `child` is `root` itself or inside it (both absolute, real paths). */
export function isInside(root: string, child: string): boolean {
  return child === root || child.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The errno code of a Node system error, if any. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const { code } = err;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** Throws `ERR_BUNDLE_ABORTED` when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted === true) {
    throw new BundleError('ERR_BUNDLE_ABORTED', `${what} was aborted`, { cause: signal.reason });
  }
}

/** Decodes UTF-8 and drops a leading byte-order mark. */
export function decodeUtf8(buf: Buffer): string {
  const text = buf.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Formats a byte count for messages ("64 MiB", "1.5 KiB"). */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}
