// Minimal typings for the parts of yazl 3 the bundle writer uses (yazl ships none).
declare module 'yazl' {
  import type { Readable } from 'node:stream';

  export interface AddOptions {
    mtime?: Date;
    mode?: number;
    compress?: boolean;
    forceZip64Format?: boolean;
    forceDosTimestamp?: boolean;
  }

  export class ZipFile {
    readonly outputStream: Readable;
    addBuffer(buffer: Buffer, metadataPath: string, options?: AddOptions): void;
    end(options?: { forceZip64Format?: boolean; comment?: string }, callback?: () => void): void;
  }
}
