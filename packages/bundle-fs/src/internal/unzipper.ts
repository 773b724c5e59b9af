// unzipper ships no types: describe the small part of its central-directory reader we use.
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';

/** What unzipper's `Open.custom` reads an archive through. */
export interface UnzipperSource {
  stream(offset: number, length?: number): Readable;
  size(): Promise<number>;
}

/** One central-directory record as unzipper parses it. */
export interface UnzipperEntry {
  path: string;
  type: 'File' | 'Directory';
  flags: number;
  versionMadeBy: number;
  compressionMethod: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  externalFileAttributes: number;
  lastModifiedDateTime: Date;
  /** The entry's decompressed bytes (re-reads its local header through the source). */
  stream(password?: string): Readable;
}

/** The parsed central directory. */
export interface UnzipperDirectory {
  files: UnzipperEntry[];
  numberOfRecords: number;
}

interface UnzipperModule {
  Open: {
    custom(source: UnzipperSource, options?: { tailSize?: number }): PromiseLike<UnzipperDirectory>;
  };
}

const require = createRequire(import.meta.url);

/** unzipper's `Open` API (central-directory reader, entries read on demand). */
export const unzipperOpen = (require('unzipper') as UnzipperModule).Open;
