import { createHash } from 'node:crypto';
import { type BigIntStats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { unsafePathReason } from '../bundle-path.js';
import { BundleError } from '../errors.js';
import type { BundleLimits } from '../types.js';
import { crc32 } from './crc32.js';
import { unzipperOpen, type UnzipperEntry, type UnzipperSource } from './unzipper.js';
import { errnoCode, formatBytes, throwIfAborted } from './util.js';

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const CENTRAL_RECORD_MIN = 46;
const READ_CHUNK = 256 * 1024;

/** One file of an opened archive. */
export interface ZipEntryInfo {
  /** Normalised bundle-relative path. */
  name: string;
  size: number;
  compressedSize: number;
  crc32: number;
  mtimeMs: number;
  raw: UnzipperEntry;
}

/** The version token of an archive file: its identity, size and times. */
export function archiveToken(st: BigIntStats): string {
  const id = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  return `zip-${createHash('sha1').update(id).digest('base64url').slice(0, 22)}`;
}

/** Stats the archive path and returns its token. @throws `ERR_BUNDLE_NOT_FOUND` when missing. */
export async function statArchiveToken(file: string): Promise<string> {
  try {
    return archiveToken(await stat(file, { bigint: true }));
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new BundleError('ERR_BUNDLE_NOT_FOUND', `zip bundle ${file} is no longer on disk`, {
        cause: err,
      });
    }
    throw err;
  }
}

/**
 * A bounded reader over an open file handle. It never emits `error`: a failed read ends the
 * stream early, which unzipper reports as a truncated entry (its pipes do not forward source
 * errors, so an `error` here would be unhandled).
 */
class RangeReader extends Readable {
  readonly #fh: FileHandle;
  #pos: number;
  readonly #end: number;
  failure: unknown;

  constructor(fh: FileHandle, start: number, end: number) {
    super({ highWaterMark: 64 * 1024 });
    this.#fh = fh;
    this.#pos = start;
    this.#end = end;
  }

  override _read(size: number): void {
    void this.#pull(size);
  }

  async #pull(size: number): Promise<void> {
    const want = Math.min(size, this.#end - this.#pos, READ_CHUNK);
    if (want <= 0) {
      this.push(null);
      return;
    }
    try {
      const buf = Buffer.allocUnsafe(want);
      const { bytesRead } = await this.#fh.read(buf, 0, want, this.#pos);
      if (this.destroyed) return;
      if (bytesRead === 0) {
        this.push(null);
        return;
      }
      this.#pos += bytesRead;
      this.push(buf.subarray(0, bytesRead));
    } catch (err) {
      this.failure = err;
      if (!this.destroyed) this.push(null);
    }
  }
}

/** Checks the inflated bytes against the central directory's size and CRC. */
class EntryVerifier extends Transform {
  readonly #entry: ZipEntryInfo;
  readonly #archive: string;
  #seen = 0;
  #crc = 0;

  constructor(entry: ZipEntryInfo, archive: string) {
    super();
    this.#entry = entry;
    this.#archive = archive;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.#seen += chunk.length;
    if (this.#seen > this.#entry.size) {
      cb(
        corrupt(
          this.#archive,
          `entry "${this.#entry.name}" inflates beyond its declared ${this.#entry.size} bytes`,
          this.#entry.name,
        ),
      );
      return;
    }
    this.#crc = crc32(chunk, this.#crc);
    cb(null, chunk);
  }

  override _flush(cb: TransformCallback): void {
    if (this.#seen !== this.#entry.size) {
      cb(
        corrupt(
          this.#archive,
          `entry "${this.#entry.name}" ended after ${this.#seen} of its ${this.#entry.size} bytes`,
          this.#entry.name,
        ),
      );
    } else if (this.#crc !== this.#entry.crc32) {
      cb(
        corrupt(
          this.#archive,
          `entry "${this.#entry.name}" fails its CRC-32 check`,
          this.#entry.name,
        ),
      );
    } else {
      cb();
    }
  }
}

function corrupt(archive: string, what: string, entry?: string, cause?: unknown): BundleError {
  return new BundleError('ERR_BUNDLE_CORRUPT', `corrupt zip bundle ${archive}: ${what}`, {
    cause,
    entry,
  });
}

interface CentralDirectoryInfo {
  /** Bytes from the end-of-central-directory record to the end of the file. */
  tailSize: number;
  entryCount: number;
}

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  return buf.subarray(0, bytesRead);
}

/**
 * Finds the end-of-central-directory record ourselves before unzipper parses anything: the
 * record must end exactly at the end of the file (so a truncated archive or random bytes fail
 * clearly), and the entry count is checked against the limit before any record is read.
 */
async function locateCentralDirectory(
  fh: FileHandle,
  size: number,
  file: string,
  limits: BundleLimits,
): Promise<CentralDirectoryInfo> {
  if (size < EOCD_SIZE) {
    throw corrupt(file, `${size} bytes is too small for a zip archive (not a zip, or truncated)`);
  }
  const tailStart = Math.max(0, size - EOCD_SIZE - MAX_COMMENT);
  const tail = await readAt(fh, tailStart, size - tailStart);
  let at = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (
      tail.readUInt32LE(i) === EOCD_SIGNATURE &&
      i + EOCD_SIZE + tail.readUInt16LE(i + 20) === tail.length
    ) {
      at = i;
      break;
    }
  }
  if (at === -1) {
    throw corrupt(file, 'no end-of-central-directory record (not a zip archive, or truncated)');
  }
  const eocdOffset = tailStart + at;
  let entryCount = tail.readUInt16LE(at + 10);
  let cdSize = tail.readUInt32LE(at + 12);
  let cdOffset = tail.readUInt32LE(at + 16);
  let cdLimit = eocdOffset;
  if (entryCount === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const locator = eocdOffset >= 20 ? await readAt(fh, eocdOffset - 20, 20) : Buffer.alloc(0);
    if (locator.length !== 20 || locator.readUInt32LE(0) !== ZIP64_LOCATOR_SIGNATURE) {
      throw corrupt(file, 'zip64 end-of-central-directory locator missing');
    }
    const recordOffset = Number(locator.readBigUInt64LE(8));
    const record =
      recordOffset + 56 <= eocdOffset ? await readAt(fh, recordOffset, 56) : Buffer.alloc(0);
    if (record.length !== 56 || record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) {
      throw corrupt(file, 'zip64 end-of-central-directory record missing or out of range');
    }
    entryCount = Number(record.readBigUInt64LE(32));
    cdSize = Number(record.readBigUInt64LE(40));
    cdOffset = Number(record.readBigUInt64LE(48));
    cdLimit = recordOffset;
  }
  if (cdOffset + cdSize > cdLimit) {
    throw corrupt(file, 'the central directory lies past the end of the data (truncated?)');
  }
  if (entryCount * CENTRAL_RECORD_MIN > cdSize) {
    throw corrupt(file, `${entryCount} entries cannot fit a ${cdSize}-byte central directory`);
  }
  if (entryCount > limits.maxEntries) {
    throw new BundleError(
      'ERR_BUNDLE_LIMIT',
      `zip bundle ${file} has ${entryCount} entries, over the limit of ${limits.maxEntries} (option maxEntries)`,
    );
  }
  return { tailSize: size - eocdOffset, entryCount };
}

function isSymlinkEntry(raw: UnzipperEntry): boolean {
  const madeByUnix = raw.versionMadeBy >> 8 === 3;
  return madeByUnix && ((raw.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
}

/** Validates every central-directory record; returns the files by normalised name. */
function indexEntries(
  files: UnzipperEntry[],
  file: string,
  limits: BundleLimits,
): { entries: Map<string, ZipEntryInfo>; totalBytes: number } {
  const entries = new Map<string, ZipEntryInfo>();
  let totalBytes = 0;
  for (const raw of files) {
    const rawName = raw.path;
    const reason = unsafePathReason(rawName);
    if (reason !== undefined) {
      throw new BundleError(
        'ERR_BUNDLE_UNSAFE_PATH',
        `zip bundle ${file} rejected: entry "${rawName.replace(/\0/g, '\\0')}" ${reason} (it could escape the bundle root)`,
        { entry: rawName },
      );
    }
    if (isSymlinkEntry(raw)) {
      throw new BundleError(
        'ERR_BUNDLE_UNSAFE_PATH',
        `zip bundle ${file} rejected: entry "${rawName}" is a symbolic link (not allowed in archives)`,
        { entry: rawName },
      );
    }
    if ((raw.flags & 0x1) !== 0) {
      throw new BundleError(
        'ERR_BUNDLE_UNSUPPORTED',
        `zip bundle ${file}: entry "${rawName}" is encrypted; bundles must not be encrypted`,
        { entry: rawName },
      );
    }
    const name = rawName
      .split('/')
      .filter((s) => s !== '' && s !== '.')
      .join('/');
    if (rawName.endsWith('/')) continue; // a directory record
    if (name === '') throw corrupt(file, `entry "${rawName}" has no name`, rawName);
    if (raw.compressionMethod !== 0 && raw.compressionMethod !== 8) {
      throw new BundleError(
        'ERR_BUNDLE_UNSUPPORTED',
        `zip bundle ${file}: entry "${rawName}" uses compression method ${raw.compressionMethod}; only stored (0) and deflate (8) are read`,
        { entry: rawName },
      );
    }
    const size = raw.uncompressedSize;
    const compressed = raw.compressedSize;
    if (
      !Number.isSafeInteger(size) ||
      !Number.isSafeInteger(compressed) ||
      size < 0 ||
      compressed < 0
    ) {
      throw corrupt(file, `entry "${rawName}" has invalid sizes`, rawName);
    }
    if (raw.compressionMethod === 0 && size !== compressed) {
      throw corrupt(
        file,
        `stored entry "${rawName}" declares ${compressed} bytes stored for ${size}`,
        rawName,
      );
    }
    if (size > limits.maxFileBytes) {
      throw new BundleError(
        'ERR_BUNDLE_LIMIT',
        `zip bundle ${file}: entry "${rawName}" is ${formatBytes(size)} uncompressed, over the ${formatBytes(limits.maxFileBytes)} limit for one file (option maxFileBytes)`,
        { entry: rawName },
      );
    }
    if (
      size > limits.compressionRatioMinBytes &&
      size / Math.max(1, compressed) > limits.maxCompressionRatio
    ) {
      const ratio = Math.round(size / Math.max(1, compressed));
      throw new BundleError(
        'ERR_BUNDLE_LIMIT',
        `zip bundle ${file}: entry "${rawName}" expands ${ratio}:1 (${formatBytes(compressed)} to ${formatBytes(size)}), over the ${limits.maxCompressionRatio}:1 compression-ratio limit (possible zip bomb; option maxCompressionRatio)`,
        { entry: rawName },
      );
    }
    totalBytes += size;
    if (totalBytes > limits.maxTotalBytes) {
      throw new BundleError(
        'ERR_BUNDLE_LIMIT',
        `zip bundle ${file} expands to more than ${formatBytes(limits.maxTotalBytes)} (option maxTotalBytes)`,
        { entry: rawName },
      );
    }
    if (entries.has(name)) {
      throw corrupt(file, `entry "${name}" appears more than once`, rawName);
    }
    entries.set(name, {
      name,
      size,
      compressedSize: compressed,
      crc32: raw.crc32 >>> 0,
      mtimeMs: raw.lastModifiedDateTime.getTime(),
      raw,
    });
  }
  return { entries, totalBytes };
}

/**
 * One opened generation of an archive: a file handle held open (so a replaced archive keeps
 * serving its old bytes to reads in flight) and its validated central directory.
 */
export class ZipArchive {
  /** The archive's version token when it was opened. */
  readonly token: string;
  /** Files by normalised path. */
  readonly entries: Map<string, ZipEntryInfo>;
  /** Sorted file paths. */
  readonly names: string[];
  /** Sum of uncompressed sizes. */
  readonly totalBytes: number;
  readonly #file: string;
  readonly #fh: FileHandle;
  readonly #readers = new Set<RangeReader>();
  #capture: RangeReader[] | undefined;
  #refs = 0;
  #retired = false;
  #closing: Promise<void> | undefined;
  #resolveDrained: (() => void) | undefined;
  readonly #drained: Promise<void>;

  private constructor(
    file: string,
    fh: FileHandle,
    token: string,
    entries: Map<string, ZipEntryInfo>,
    totalBytes: number,
  ) {
    this.#file = file;
    this.#fh = fh;
    this.token = token;
    this.entries = entries;
    this.totalBytes = totalBytes;
    this.names = [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.#drained = new Promise((resolve) => {
      this.#resolveDrained = resolve;
    });
  }

  /**
   * Opens and validates the archive at `file`.
   * @throws {BundleError} `ERR_BUNDLE_NOT_FOUND`, `ERR_BUNDLE_CORRUPT`, `ERR_BUNDLE_UNSAFE_PATH`, `ERR_BUNDLE_LIMIT`, `ERR_BUNDLE_UNSUPPORTED`, `ERR_BUNDLE_ABORTED`.
   */
  static async open(file: string, limits: BundleLimits, signal?: AbortSignal): Promise<ZipArchive> {
    let fh: FileHandle;
    try {
      fh = await open(file, 'r');
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        throw new BundleError('ERR_BUNDLE_NOT_FOUND', `no zip bundle at ${file}`, { cause: err });
      }
      throw err;
    }
    // Readers unzipper creates while parsing (tail, central directory) are dropped after it;
    // later ones (entry reads) belong to the archive.
    const openReaders: RangeReader[] = [];
    const hooks: { onReader: (r: RangeReader) => void } = { onReader: (r) => openReaders.push(r) };
    try {
      const st = await fh.stat({ bigint: true });
      if (!st.isFile()) {
        throw new BundleError('ERR_BUNDLE_UNSUPPORTED', `zip bundle ${file} is not a regular file`);
      }
      const size = Number(st.size);
      const cd = await locateCentralDirectory(fh, size, file, limits);
      throwIfAborted(signal, `opening zip bundle ${file}`);
      const source: UnzipperSource = {
        stream: (offset, length) => {
          const end = length ? Math.min(size, offset + length) : size;
          const reader = new RangeReader(fh, offset, end);
          hooks.onReader(reader);
          return reader;
        },
        size: () => Promise.resolve(size),
      };
      let directory;
      try {
        directory = await unzipperOpen.custom(source, { tailSize: cd.tailSize });
      } catch (err) {
        throw corrupt(
          file,
          `the central directory cannot be read (${describeCause(err)})`,
          undefined,
          err,
        );
      }
      throwIfAborted(signal, `opening zip bundle ${file}`);
      if (directory.files.length !== cd.entryCount) {
        throw corrupt(
          file,
          `read ${directory.files.length} of ${cd.entryCount} central-directory records`,
        );
      }
      const { entries, totalBytes } = indexEntries(directory.files, file, limits);
      const archive = new ZipArchive(file, fh, archiveToken(st), entries, totalBytes);
      hooks.onReader = (r) => archive.#adopt(r);
      return archive;
    } catch (err) {
      await fh.close().catch(() => undefined);
      throw err;
    } finally {
      for (const r of openReaders) r.destroy();
    }
  }

  /** Counts a read in flight; the returned function (idempotent) ends it. */
  acquire(): () => void {
    if (this.#closing !== undefined) {
      throw new BundleError(
        'ERR_BUNDLE_CHANGED',
        `zip bundle ${this.#file} was re-opened during the call; retry`,
      );
    }
    this.#refs += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#refs -= 1;
      if (this.#retired && this.#refs === 0) void this.#finalize();
    };
  }

  /** No new reads will start; resolves once reads in flight are done and the handle is closed. */
  retire(): Promise<void> {
    this.#retired = true;
    if (this.#refs === 0) return this.#finalize();
    return this.#drained.then(() => this.#finalize());
  }

  /** Ends reads in flight at once and closes the handle. */
  destroy(): Promise<void> {
    this.#retired = true;
    for (const r of this.#readers) r.destroy();
    return this.#finalize();
  }

  /**
   * The verified bytes of one entry: fails with `ERR_BUNDLE_CORRUPT` when they do not inflate
   * to the declared size and CRC (a lying header, a zip bomb or an archive rewritten in place).
   */
  openEntry(entry: ZipEntryInfo): Readable {
    if (entry.size === 0) {
      const empty = new PassThrough();
      empty.end();
      return empty;
    }
    const captured: RangeReader[] = [];
    const verifier = new EntryVerifier(entry, this.#file);
    let raw: Readable;
    // unzipper calls source.stream() synchronously inside entry.stream(): capture that reader
    // so an abandoned read can stop it.
    this.#capture = captured;
    try {
      raw = entry.raw.stream();
    } finally {
      this.#capture = undefined;
    }
    const stop = (): void => {
      for (const r of captured) r.destroy();
      raw.destroy();
    };
    // unzipper emits errors on its entry stream directly, possibly more than once: keep a
    // listener for the whole life of the stream.
    raw.on('error', (err: unknown) => {
      stop();
      const failure = captured.find((r) => r.failure !== undefined)?.failure;
      verifier.destroy(
        corrupt(
          this.#file,
          `entry "${entry.name}" cannot be read (${describeCause(err)})`,
          entry.name,
          failure ?? err,
        ),
      );
    });
    verifier.once('close', () => {
      if (!verifier.writableFinished) stop();
    });
    raw.pipe(verifier);
    return verifier;
  }

  #adopt(reader: RangeReader): void {
    this.#readers.add(reader);
    reader.once('close', () => this.#readers.delete(reader));
    this.#capture?.push(reader);
  }

  #finalize(): Promise<void> {
    this.#resolveDrained?.();
    this.#closing ??= (async () => {
      for (const r of this.#readers) r.destroy();
      this.#readers.clear();
      await this.#fh.close().catch(() => undefined);
    })();
    return this.#closing;
  }
}

function describeCause(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
