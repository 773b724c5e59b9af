import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../apps/service/bin/browsertask.js', import.meta.url));

/** goto + wait until + extract 20 records: the task every comparison uses. */
export const EXTRACT_TASK = `task "bench/extract"
  input url string doc "Page with the records"
  goto "{{url}}"
  wait until ".item" timeout 5000
  extract items from ".item" repeat
    title text "a"
    href attr href on "a"
    price text ".price"
  end
end
`;

/** Emits a progress event carrying the page clock right after a js step. */
export const SSE_TASK = `task "bench/sse"
  transport sse
  js t script "return Date.now();"
  emit progress "tick" data { t: "{{t}}" }
  wait 50
end
`;

/** A trivial task that never touches the network: one evaluate round trip. */
export const TRIVIAL_TASK = `task "bench/trivial"
  js n script "return 1 + 1;"
end
`;

export interface BundleOptions {
  readonly poolSize: number;
  /** Extra filler tasks (for the hot-reload scenario). */
  readonly extraTasks?: number;
}

/** Writes a bundle directory for the benchmarks and returns its path. */
export function makeBundleDir(options: BundleOptions): string {
  const dir = mkdtempSync(join(tmpdir(), 'browsertask-bench-'));
  mkdirSync(join(dir, 'tasks', 'bench'), { recursive: true });
  writeFileSync(join(dir, 'pool.yaml'), `pools:\n  default: { size: ${options.poolSize} }\n`);
  writeFileSync(join(dir, 'tasks', 'bench', 'extract.task'), EXTRACT_TASK);
  writeFileSync(join(dir, 'tasks', 'bench', 'sse.task'), SSE_TASK);
  writeFileSync(join(dir, 'tasks', 'bench', 'trivial.task'), TRIVIAL_TASK);
  const extra = options.extraTasks ?? 0;
  if (extra > 0) mkdirSync(join(dir, 'tasks', 'filler'), { recursive: true });
  for (let i = 0; i < extra; i++) {
    writeFileSync(
      join(dir, 'tasks', 'filler', `t${i}.task`),
      `task "filler/t${i}"\n  input q string default x doc "query"\n  goto "http://127.0.0.1:9/?q={{q}}"\n  wait until "body" timeout 1000\nend\n`,
    );
  }
  return dir;
}

/** Zips a bundle directory with `browsertask bundle` (the real CLI). */
export function zipBundle(dir: string): string {
  const out = join(mkdtempSync(join(tmpdir(), 'browsertask-bench-zip-')), 'bundle.zip');
  const r = spawnSync(process.execPath, [cli, 'bundle', dir, out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`browsertask bundle failed: ${r.stderr}`);
  return out;
}
