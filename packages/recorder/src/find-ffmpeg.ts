import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const s = await stat(path);
    if (!s.isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds an ffmpeg binary: `ffmpegPath` when given (an explicit setting wins and is never
 * second-guessed), else the first executable `ffmpeg` on `searchPath` (a PATH-style list).
 * Resolves `undefined` when there is none, so callers can fall back to GIF before recording.
 * @param ffmpegPath explicit path, e.g. from a configuration variable.
 * @param searchPath directories to search. @default process.env.PATH
 * @example
 * const ffmpeg = await findFfmpeg(); // '/usr/bin/ffmpeg' or undefined
 */
export async function findFfmpeg(
  ffmpegPath?: string,
  searchPath: string | undefined = process.env.PATH,
): Promise<string | undefined> {
  if (ffmpegPath !== undefined && ffmpegPath !== '') {
    return (await isExecutableFile(ffmpegPath)) ? ffmpegPath : undefined;
  }
  for (const dir of (searchPath ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
