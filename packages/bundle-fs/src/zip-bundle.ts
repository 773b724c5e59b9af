import { PassThrough, type Readable } from 'node:stream';
import { normalizeBundlePath } from './bundle-path.js';
import { BundleError } from './errors.js';
import { globToRegExp } from './glob.js';
import { statArchiveToken, ZipArchive, type ZipEntryInfo } from './internal/zip-archive.js';
import { decodeUtf8 } from './internal/util.js';
import type { Logger } from './logger.js';
import type { Bundle, BundleDescription, BundleFileStat, BundleLimits } from './types.js';

/**
 * A bundle served from a zip/jar archive read in place. Each call stats the archive; when its
 * token changed (replaced or rewritten) the central directory is re-read first. Reads in flight
 * keep the file handle of the archive they started on: they finish with the old bytes, or — when
 * the file was rewritten in place underneath them — fail with `ERR_BUNDLE_CHANGED`. Created by
 * {@link openBundle}.
 */
export class ZipBundle implements Bundle {
  /** Always `zip`. */
  readonly kind = 'zip' as const;
  /** Absolute path of the archive. */
  readonly path: string;
  readonly #limits: BundleLimits;
  readonly #logger: Logger;
  readonly #archives = new Set<ZipArchive>();
  readonly #streams = new Set<Readable>();
  #current: ZipArchive;
  #currentSeq = 0;
  #nextSeq = 1;
  #reopening: { token: string; promise: Promise<ZipArchive> } | undefined;
  #closed = false;
  #destroyed = false;
  readonly #pending = new Set<Promise<void>>();

  /** Use {@link openBundle}. */
  constructor(path: string, archive: ZipArchive, limits: BundleLimits, logger: Logger) {
    this.path = path;
    this.#current = archive;
    this.#archives.add(archive);
    this.#limits = limits;
    this.#logger = logger;
  }

  async list(glob?: string): Promise<string[]> {
    const re = glob === undefined ? undefined : globToRegExp(glob);
    const archive = await this.#fresh();
    return re === undefined ? [...archive.names] : archive.names.filter((n) => re.test(n));
  }

  async readFile(path: string): Promise<Buffer> {
    const rel = normalizeBundlePath(path);
    this.#assertOpen();
    const done = this.#begin();
    try {
      return await this.#read(rel);
    } finally {
      done();
    }
  }

  async #read(rel: string): Promise<Buffer> {
    const archive = await this.#fresh();
    const entry = this.#lookup(archive, rel);
    const release = archive.acquire();
    try {
      return await collect(archive.openEntry(entry), entry.size);
    } catch (err) {
      throw await this.#explain(err, archive, rel);
    } finally {
      release();
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
      const rel = normalizeBundlePath(path);
      this.#assertOpen();
      const done = this.#begin();
      let archive: ZipArchive;
      try {
        archive = await this.#fresh();
      } finally {
        done();
      }
      const entry = this.#lookup(archive, rel);
      if (out.destroyed) return;
      const release = archive.acquire();
      const src = archive.openEntry(entry);
      out.once('close', () => {
        release();
        src.destroy();
      });
      src.on('error', (err) => {
        this.#explain(err, archive, rel).then(
          (mapped) => out.destroy(mapped),
          (other: unknown) => out.destroy(other as Error),
        );
      });
      src.pipe(out);
    };
    start().catch((err: unknown) => out.destroy(err as Error));
    return out;
  }

  async stat(path: string): Promise<BundleFileStat | undefined> {
    const rel = normalizeBundlePath(path);
    const entry = (await this.#fresh()).entries.get(rel);
    return entry === undefined
      ? undefined
      : {
          size: entry.size,
          mtimeMs: entry.mtimeMs,
          fingerprint: `${entry.size}:${entry.crc32.toString(16)}`,
        };
  }

  async exists(path: string): Promise<boolean> {
    const rel = normalizeBundlePath(path);
    return (await this.#fresh()).entries.has(rel);
  }

  async version(): Promise<string> {
    this.#assertOpen();
    return statArchiveToken(this.path);
  }

  async describe(): Promise<BundleDescription> {
    const archive = await this.#fresh();
    return {
      kind: this.kind,
      path: this.path,
      fileCount: archive.names.length,
      totalBytes: archive.totalBytes,
      version: archive.token,
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    // Calls that started before close() finish first (they may be waiting on a stat).
    while (this.#pending.size > 0) await Promise.all(this.#pending);
    await this.#reopening?.promise.catch(() => undefined);
    await Promise.all([...this.#archives].map((a) => a.retire()));
    this.#archives.clear();
  }

  destroy(): void {
    this.#closed = true;
    this.#destroyed = true;
    for (const s of this.#streams) s.destroy();
    this.#streams.clear();
    for (const a of this.#archives) void a.destroy();
    this.#archives.clear();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Marks a call in flight until the returned function runs. */
  #begin(): () => void {
    let finish!: () => void;
    const p = new Promise<void>((resolve) => {
      finish = resolve;
    });
    this.#pending.add(p);
    return () => {
      this.#pending.delete(p);
      finish();
    };
  }

  #assertOpen(): void {
    if (this.#closed)
      throw new BundleError('ERR_BUNDLE_CLOSED', `zip bundle ${this.path} is closed`);
  }

  #lookup(archive: ZipArchive, rel: string): ZipEntryInfo {
    const entry = archive.entries.get(rel);
    if (entry === undefined) {
      throw new BundleError(
        'ERR_BUNDLE_FILE_NOT_FOUND',
        `no file "${rel}" in zip bundle ${this.path}`,
        {
          entry: rel,
        },
      );
    }
    return entry;
  }

  /** The archive matching the file on disk now, re-reading the central directory if it changed. */
  async #fresh(): Promise<ZipArchive> {
    this.#assertOpen();
    const token = await statArchiveToken(this.path);
    if (token === this.#current.token) return this.#current;
    if (this.#reopening?.token === token) return this.#reopening.promise;
    const seq = this.#nextSeq++;
    const promise = ZipArchive.open(this.path, this.#limits).then(
      (archive) => this.#install(archive, seq),
      (err: unknown) => {
        this.#logger.warn(
          { bundle: this.path, err },
          'zip bundle changed on disk and cannot be re-opened',
        );
        throw err;
      },
    );
    const entry = { token, promise };
    this.#reopening = entry;
    const clear = (): void => {
      if (this.#reopening === entry) this.#reopening = undefined;
    };
    promise.then(clear, clear);
    return promise;
  }

  #install(archive: ZipArchive, seq: number): ZipArchive {
    if (this.#destroyed) {
      void archive.destroy();
      throw new BundleError('ERR_BUNDLE_CLOSED', `zip bundle ${this.path} is closed`);
    }
    // After close() started, the archive is still installed: close() retires every archive
    // once the calls in flight (one of which asked for this re-open) are done.
    if (seq < this.#currentSeq) {
      // A later re-open already won: this one read an older file.
      void archive.retire();
      return this.#current;
    }
    const previous = this.#current;
    this.#current = archive;
    this.#currentSeq = seq;
    this.#archives.add(archive);
    void previous.retire().then(() => this.#archives.delete(previous));
    this.#logger.info(
      { bundle: this.path, version: archive.token, files: archive.names.length },
      'zip bundle re-opened',
    );
    return archive;
  }

  /** Maps a failed entry read: if the archive changed on disk meanwhile, say so. */
  async #explain(err: unknown, archive: ZipArchive, rel: string): Promise<Error> {
    const onDisk = await statArchiveToken(this.path).catch(() => undefined);
    if (onDisk !== archive.token) {
      return new BundleError(
        'ERR_BUNDLE_CHANGED',
        `zip bundle ${this.path} changed on disk while "${rel}" was being read; retry the read`,
        { cause: err, entry: rel },
      );
    }
    if (err instanceof BundleError) return err;
    return new BundleError(
      'ERR_BUNDLE_CORRUPT',
      `cannot read "${rel}" from zip bundle ${this.path}`,
      {
        cause: err,
        entry: rel,
      },
    );
  }
}

function collect(stream: Readable, expected: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.once('error', reject);
    stream.once('end', () =>
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, expected)),
    );
  });
}
