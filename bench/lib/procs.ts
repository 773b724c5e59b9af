import { readFileSync, readdirSync } from 'node:fs';

/** Child PIDs of every process, read once from /proc (Linux only). */
function childrenMap(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may contain spaces and parentheses: parse after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = map.get(ppid) ?? [];
      list.push(Number(entry));
      map.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  return map;
}

/** `pid` and all its descendants. */
export function processTree(pid: number): number[] {
  const map = childrenMap();
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...(map.get(p) ?? []));
  }
  return out;
}

/** Resident set size of one process in bytes (0 when gone). */
export function rssBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Summed RSS of a process tree in MB. RSS double-counts shared pages: an upper bound. */
export function treeRssMb(pid: number): number {
  const bytes = processTree(pid).reduce((sum, p) => sum + rssBytes(p), 0);
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}

/** Proportional set size of a process tree in MB (shared pages split fairly), from smaps_rollup. */
export function treePssMb(pid: number): number {
  let kb = 0;
  for (const p of processTree(pid)) {
    try {
      const text = readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      kb += Number(/Pss:\s+(\d+)/.exec(text)?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return Math.round((kb / 1024) * 10) / 10;
}

/** CPU time (user + system) of a process tree in seconds, from /proc/<pid>/stat (Linux). */
export function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the command.
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}
