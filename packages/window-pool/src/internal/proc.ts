import { readdirSync, readFileSync } from 'node:fs';

/** A process seen in /proc: pid plus start time, so a recycled pid is never mistaken for it. */
export interface ProcRef {
  pid: number;
  startTime: string;
}

interface ProcStat {
  ppid: number;
  startTime: string;
  state: string;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: state ppid ... starttime is field 22.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0] ?? '', ppid: Number(rest[1]), startTime: rest[19] ?? '' };
  } catch {
    return undefined;
  }
}

function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
}

/** `rootPid` and every live descendant of it (Linux /proc walk; empty elsewhere). */
export function processTree(rootPid: number): ProcRef[] {
  const root = readStat(rootPid);
  if (!root || root.state === 'Z') return [];
  const children = new Map<number, number[]>();
  const stats = new Map<number, ProcStat>();
  for (const pid of allPids()) {
    const st = readStat(pid);
    if (!st) continue;
    stats.set(pid, st);
    const list = children.get(st.ppid);
    if (list) list.push(pid);
    else children.set(st.ppid, [pid]);
  }
  const out: ProcRef[] = [{ pid: rootPid, startTime: root.startTime }];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const child of children.get(pid) ?? []) {
      const st = stats.get(child);
      if (!st || st.state === 'Z') continue;
      out.push({ pid: child, startTime: st.startTime });
      queue.push(child);
    }
  }
  return out;
}

/** Whether the very process `ref` names is still alive (same pid, same start time, not a zombie). */
export function isAlive(ref: ProcRef): boolean {
  const st = readStat(ref.pid);
  return st !== undefined && st.state !== 'Z' && st.startTime === ref.startTime;
}

/** SIGKILLs every process of `refs` that is still the same live process; returns how many. */
export function killSurvivors(refs: readonly ProcRef[]): number {
  let killed = 0;
  for (const ref of refs) {
    if (!isAlive(ref)) continue;
    try {
      process.kill(ref.pid, 'SIGKILL');
      killed++;
    } catch {
      // Already gone between the check and the kill.
    }
  }
  return killed;
}

/**
 * Finds the direct child of this process whose command line contains `marker` (the unique
 * switch given to each Chromium this package launches), so it can be tracked by pid.
 */
export function findChildByMarker(marker: string): ProcRef | undefined {
  for (const pid of allPids()) {
    const st = readStat(pid);
    if (!st || st.ppid !== process.pid || st.state === 'Z') continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker)) {
        return { pid, startTime: st.startTime };
      }
    } catch {
      // Exited while scanning.
    }
  }
  return undefined;
}

/** Live members of process group `pgid` (Chromium is launched as a group leader). */
export function processGroupMembers(pgid: number): ProcRef[] {
  const out: ProcRef[] = [];
  for (const pid of allPids()) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z' || Number(rest[2]) !== pgid) continue;
      out.push({ pid, startTime: rest[19] ?? '' });
    } catch {
      // Exited while scanning.
    }
  }
  return out;
}
