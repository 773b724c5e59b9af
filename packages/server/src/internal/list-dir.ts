import { readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** One file of a mount listing (before the URL is added). */
export interface ListedFile {
  /** Path relative to the mount root, `/`-separated. */
  readonly name: string;
  readonly size: number;
  /** Modification time, epoch milliseconds (integer). */
  readonly mtime: number;
}

/**
 * Lists the regular files under `root` (walking subdirectories when `recursive`),
 * sorted by name (code-unit order). A missing or non-directory root lists empty.
 * Symlinks are followed only to files inside the root; symlinked directories are not
 * walked (no cycles).
 */
export async function listFiles(root: string, recursive: boolean): Promise<ListedFile[]> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
    if (!(await stat(realRoot)).isDirectory()) return [];
  } catch {
    return [];
  }
  const out: ListedFile[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = join(dir, entry.name);
      const name = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        if (recursive) await walk(full, name);
        continue;
      }
      if (entry.isSymbolicLink()) {
        const target = await realpath(full).catch(() => undefined);
        if (target === undefined || !target.startsWith(realRoot + sep)) continue;
      } else if (!entry.isFile()) {
        continue;
      }
      const st = await stat(full).catch(() => undefined);
      if (st === undefined || !st.isFile()) continue;
      out.push({ name, size: st.size, mtime: Math.floor(st.mtimeMs) });
    }
  };
  await walk(realRoot, '');
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
