import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** A node script running inside a real pseudo-terminal (util-linux `script`). */
export interface PtySession {
  /** Everything the terminal showed so far (what a user would see, including echo). */
  output(): string;
  /** Resolves once `text` has appeared in the terminal output. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  /** Type into the terminal. */
  type(keys: string): void;
  /** Resolves with the exit code of `script` (which returns the child's, thanks to -e). */
  exited: Promise<number | null>;
  child: ChildProcessWithoutNullStreams;
}

/** Run `node --import tsx <script> ...args` under `script -qfec … /dev/null`. */
export function runInPty(scriptPath: string, args: string[]): PtySession {
  const command = [process.execPath, '--conditions=source', '--import', 'tsx', scriptPath, ...args]
    .map(shellQuote)
    .join(' ');
  const env = { ...process.env, TERM: 'xterm', NODE_OPTIONS: '' };
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: repoRoot, env });
  let out = '';
  const listeners = new Set<() => void>();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
    for (const l of listeners) l();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    out += chunk;
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    exited,
    output: () => out,
    type: (keys) => {
      child.stdin.write(keys);
    },
    waitFor: (text, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (out.includes(text)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(
              `timed out waiting for ${JSON.stringify(text)}; output: ${JSON.stringify(out)}`,
            ),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
  };
}
