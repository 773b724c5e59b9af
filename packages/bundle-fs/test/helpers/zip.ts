// Test helpers: real zip archives made with yazl, plus byte patches for archives yazl refuses
// to write (unsafe names, lying headers).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

interface YazlZipFile {
  addBuffer(
    buf: Buffer,
    name: string,
    options?: { compress?: boolean; mode?: number; mtime?: Date },
  ): void;
  end(options?: { comment?: string | Buffer }): void;
  outputStream: Readable;
}
const require = createRequire(import.meta.url);
const yazl = require('yazl') as { ZipFile: new () => YazlZipFile };

/** Per-entry options for {@link makeZip}. */
export interface ZipEntryOptions {
  compress?: boolean;
  mode?: number;
}

/** Builds a zip in memory from `{ path: content }` (sorted for stable output). */
export async function makeZip(
  files: Record<string, string | Buffer>,
  options: Record<string, ZipEntryOptions> = {},
  archive: { comment?: string | Buffer } = {},
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const name of Object.keys(files).sort()) {
    const content = files[name]!;
    zip.addBuffer(typeof content === 'string' ? Buffer.from(content) : content, name, {
      mtime: new Date('2025-01-02T03:04:06Z'),
      ...options[name],
    });
  }
  zip.end(archive);
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Replaces every occurrence of the name `from` by `to` (same byte length) in local and central headers. */
export function patchName(zip: Buffer, from: string, to: string): Buffer {
  const a = Buffer.from(from);
  const b = Buffer.from(to);
  if (a.length !== b.length) throw new Error('patchName needs names of equal byte length');
  const out = Buffer.from(zip);
  let hits = 0;
  for (let i = out.indexOf(a); i !== -1; i = out.indexOf(a, i + 1)) {
    b.copy(out, i);
    hits += 1;
  }
  if (hits < 2) throw new Error(`patchName: "${from}" found ${hits} times`);
  return out;
}

/** Offsets of every central-directory record (signature PK\x01\x02). */
export function centralRecords(zip: Buffer): number[] {
  const sig = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  const out: number[] = [];
  for (let i = zip.indexOf(sig); i !== -1; i = zip.indexOf(sig, i + 1)) out.push(i);
  return out;
}

/** A fresh temp directory removed by `cleanup()`. */
export async function tempDir(
  prefix: string,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `bundle-fs-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes `data` to `file` atomically (temp file + rename), as a deploy would. */
export async function replaceFile(file: string, data: Buffer): Promise<void> {
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

/** Reads a stream to one Buffer. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
