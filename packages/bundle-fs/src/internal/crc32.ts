// CRC-32 (IEEE) for verifying zip entries: zlib.crc32 where Node has it (>= 20.15), else a table.
import * as zlib from 'node:zlib';

const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

const TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  TABLE[n] = c >>> 0;
}

function crc32Table(buf: Uint8Array, previous: number): number {
  let c = (previous ^ 0xffffffff) >>> 0;
  for (let i = 0; i < buf.length; i++) {
    c = (TABLE[(c ^ (buf[i] as number)) & 0xff] as number) ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Continues a CRC-32 over `buf` (start with 0); returns the unsigned value. */
export function crc32(buf: Uint8Array, previous = 0): number {
  return native === undefined ? crc32Table(buf, previous) : native(buf, previous) >>> 0;
}

/** The table implementation, exported for tests that compare it with zlib's. */
export const crc32Portable = crc32Table;
