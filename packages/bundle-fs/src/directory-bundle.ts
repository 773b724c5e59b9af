import { createHash } from 'node:crypto';
import {
  createReadStream as fsCreateReadStream,
  type BigIntStats,
  type Dirent,
  type Stats,
} from 'node:fs';
import { readdir, readFile as fsReadFile, realpath, stat as fsStat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { normalizeBundlePath } from './bundle-path.js';
import { BundleError } from './errors.js';
import { globToRegExp } from './glob.js';
import { decodeUtf8, errnoCode, formatBytes, isInside } from './internal/util.js';
import type { Logger } from './logger.js';
import type { Bundle, BundleDescription, BundleFileStat, BundleLimits } from './types.js';

const STAT_BATCH = 32;

interface WalkedFile {
  path: string;
  size: number;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/**
 * A bundle served from a directory, read live on every call. Symbolic links are followed when
 * they stay inside the (real) root; one that resolves outside fails with
 * `ERR_BUNDLE_SYMLINK_ESCAPE`. Created by {@link openBundle}.
 */
export class DirectoryBundle implements Bundle {
  /** Always `directory`. */
  readonly kind = 'directory' as const;
  /** Absolute path of the bundle directory as given (resolved against the cwd). */
  readonly path: string;
  readonly #realRoot: string;
  readonly #limits: BundleLimits;
  readonly #logger: Logger;
  readonly #streams = new Set<Readable>();
  #closed = false;

  /** Use {@link openBundle}; this constructor does no I/O and no validation. */
  constructor(path: string, realRoot: string, limits: BundleLimits, logger: Logger) {
    this.path = path;
    this.#realRoot = realRoot;
    this.#limits = limits;
    this.#logger = logger;
  }

  /** Walks the whole tree once, checking symlinks and limits (called by openBundle). */
  async validate(): Promise<void> {
    await this.#walk(true);
  }

  async list(glob?: string): Promise<string[]> {
    this.#assertOpen();
    const re = glob === undefined ? undefined : globToRegExp(glob);
    const files = await this.#walk(false);
    const paths = files.map((f) => f.path);
    return re === undefined ? paths : paths.filter((p) => re.test(p));
  }

  async readFile(path: string): Promise<Buffer> {
    this.#assertOpen();
    const { real, rel } = await this.#resolveFile(path);
    try {
      return await fsReadFile(real);
    } catch (err) {
      throw this.#mapReadError(err, rel);
    }
  }

  async readText(path: string): Promise<string> {
    return decodeUtf8(await this.readFile(path));
  }

  createReadStream(path: string): Readable {
    const out = new PassThrough();
    this.#streams.add(out);
    out.once('close', () => this.#streams.delete(out));
    const start = async (): Promise<void> => {
      this.#assertOpen();
      const { real, rel } = await this.#resolveFile(path);
      const src = fsCreateReadStream(real);
      src.once('error', (err) => out.destroy(this.#mapReadError(err, rel)));
      out.once('close', () => src.destroy());
      src.pipe(out);
    };
    start().catch((err: unknown) => out.destroy(err as Error));
    return out;
  }

  async stat(path: string): Promise<BundleFileStat | undefined> {
    this.#assertOpen();
    try {
      const { st } = await this.#resolveFile(path, false);
      return {
        size: st.size,
        mtimeMs: st.mtimeMs,
        fingerprint: `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`,
      };
    } catch (err) {
      if (err instanceof BundleError && err.code === 'ERR_BUNDLE_FILE_NOT_FOUND') return undefined;
      throw err;
    }
  }

  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== undefined;
  }

  async version(): Promise<string> {
    this.#assertOpen();
    const files = await this.#walk(true);
    const hash = createHash('sha1');
    for (const f of files) hash.update(`${f.path}\0${f.size}\0${f.mtimeNs}\0${f.ctimeNs}\n`);
    return `dir-${hash.digest('base64url').slice(0, 22)}`;
  }

  async describe(): Promise<BundleDescription> {
    this.#assertOpen();
    const files = await this.#walk(true);
    const hash = createHash('sha1');
    let totalBytes = 0;
    for (const f of files) {
      hash.update(`${f.path}\0${f.size}\0${f.mtimeNs}\0${f.ctimeNs}\n`);
      totalBytes += f.size;
    }
    return {
      kind: this.kind,
      path: this.path,
      fileCount: files.length,
      totalBytes,
      version: `dir-${hash.digest('base64url').slice(0, 22)}`,
    };
  }

  close(): Promise<void> {
    this.#closed = true;
    return Promise.resolve();
  }

  destroy(): void {
    this.#closed = true;
    for (const s of this.#streams) s.destroy();
    this.#streams.clear();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #assertOpen(): void {
    if (this.#closed) {
      throw new BundleError('ERR_BUNDLE_CLOSED', `directory bundle ${this.path} is closed`);
    }
  }

  async #resolveFile(
    path: string,
    enforceSize = true,
  ): Promise<{ real: string; rel: string; st: Stats }> {
    const rel = normalizeBundlePath(path);
    let real: string;
    try {
      real = await realpath(join(this.#realRoot, rel));
    } catch (err) {
      throw this.#mapReadError(err, rel);
    }
    if (!isInside(this.#realRoot, real)) {
      throw new BundleError(
        'ERR_BUNDLE_SYMLINK_ESCAPE',
        `"${rel}" in directory bundle ${this.path} resolves to ${real}, outside the bundle`,
        { entry: rel },
      );
    }
    let st: Stats;
    try {
      st = await fsStat(real);
    } catch (err) {
      throw this.#mapReadError(err, rel);
    }
    if (!st.isFile()) {
      throw new BundleError(
        'ERR_BUNDLE_FILE_NOT_FOUND',
        `"${rel}" in directory bundle ${this.path} is not a file`,
        { entry: rel },
      );
    }
    if (enforceSize && st.size > this.#limits.maxFileBytes) {
      throw new BundleError(
        'ERR_BUNDLE_LIMIT',
        `"${rel}" in directory bundle ${this.path} is ${formatBytes(st.size)}, over the ${formatBytes(this.#limits.maxFileBytes)} limit for one file (option maxFileBytes)`,
        { entry: rel },
      );
    }
    return { real, rel, st };
  }

  #mapReadError(err: unknown, rel: string): Error {
    if (err instanceof BundleError) return err;
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'ELOOP') {
      return new BundleError(
        'ERR_BUNDLE_FILE_NOT_FOUND',
        `no file "${rel}" in directory bundle ${this.path}`,
        { cause: err, entry: rel },
      );
    }
    return err instanceof Error ? err : new Error(String(err));
  }

  /**
   * Lists every regular file (sorted). With `withStats`, stats each one and enforces the size
   * limits; without, only names and symlink targets are checked (cheaper, for `list()`).
   */
  async #walk(withStats: boolean): Promise<WalkedFile[]> {
    const out: WalkedFile[] = [];
    let totalBytes = 0;
    const limits = this.#limits;
    const bundlePath = this.path;
    const realRoot = this.#realRoot;

    let fileCount = 0;
    const addFile = async (rel: string, full: string): Promise<void> => {
      fileCount += 1;
      if (fileCount > limits.maxEntries) {
        throw new BundleError(
          'ERR_BUNDLE_LIMIT',
          `directory bundle ${bundlePath} holds more than ${limits.maxEntries} files (option maxEntries)`,
          { entry: rel },
        );
      }
      if (!withStats) {
        out.push({ path: rel, size: 0, mtimeNs: 0n, ctimeNs: 0n });
        return;
      }
      let st: BigIntStats;
      try {
        st = await fsStat(full, { bigint: true });
      } catch (err) {
        if (errnoCode(err) === 'ENOENT') return; // removed while walking
        throw err;
      }
      const size = Number(st.size);
      if (size > limits.maxFileBytes) {
        throw new BundleError(
          'ERR_BUNDLE_LIMIT',
          `"${rel}" in directory bundle ${bundlePath} is ${formatBytes(size)}, over the ${formatBytes(limits.maxFileBytes)} limit for one file (option maxFileBytes)`,
          { entry: rel },
        );
      }
      totalBytes += size;
      if (totalBytes > limits.maxTotalBytes) {
        throw new BundleError(
          'ERR_BUNDLE_LIMIT',
          `directory bundle ${bundlePath} holds more than ${formatBytes(limits.maxTotalBytes)} (option maxTotalBytes)`,
          { entry: rel },
        );
      }
      out.push({ path: rel, size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs });
    };

    // `ancestors` holds the real paths of the directories on the current chain, so a symlink
    // pointing back up (a cycle) is not followed forever.
    const visit = async (
      dirFull: string,
      dirReal: string,
      relPrefix: string,
      ancestors: Set<string>,
    ): Promise<void> => {
      let dirents: Dirent[];
      try {
        dirents = await readdir(dirFull, { withFileTypes: true });
      } catch (err) {
        if (errnoCode(err) === 'ENOENT' && relPrefix !== '') return;
        throw err;
      }
      dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      // Plain files first, a batch at a time (the libuv pool runs several stats at once); every
      // batch is awaited before anything else so no rejection is left without a handler.
      const batch: Promise<void>[] = [];
      for (const d of dirents) {
        if (!d.isFile()) continue;
        batch.push(
          addFile(relPrefix === '' ? d.name : `${relPrefix}/${d.name}`, join(dirFull, d.name)),
        );
        if (batch.length >= STAT_BATCH) await Promise.all(batch.splice(0));
      }
      await Promise.all(batch);
      for (const d of dirents) {
        const full = join(dirFull, d.name);
        const rel = relPrefix === '' ? d.name : `${relPrefix}/${d.name}`;
        if (d.isSymbolicLink()) {
          let target: string;
          try {
            target = await realpath(full);
          } catch (err) {
            // A dangling link is no file: skip it, like a file that is not there.
            if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ELOOP') continue;
            throw err;
          }
          if (!isInside(realRoot, target)) {
            throw new BundleError(
              'ERR_BUNDLE_SYMLINK_ESCAPE',
              `symbolic link "${rel}" in directory bundle ${bundlePath} resolves to ${target}, outside the bundle`,
              { entry: rel },
            );
          }
          const st = await fsStat(target);
          if (st.isDirectory()) {
            if (ancestors.has(target)) continue;
            await visit(full, target, rel, new Set(ancestors).add(target));
          } else if (st.isFile()) {
            await addFile(rel, full);
          }
        } else if (d.isDirectory()) {
          const real = join(dirReal, d.name);
          await visit(full, real, rel, new Set(ancestors).add(real));
        }
      }
    };
    await visit(realRoot, realRoot, '', new Set([realRoot]));
    // Directory-by-directory order is not the global byte order ("a/b" vs "a-b"): sort once.
    out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    this.#logger.debug({ bundle: bundlePath, files: out.length }, 'directory bundle walked');
    return out;
  }
}
