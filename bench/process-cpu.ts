import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat on Linux (USER_HZ, 100 on every mainstream kernel). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used so far, in milliseconds; undefined where /proc is missing.
 * Per-request CPU tells more than req/s on a machine whose cores other work also wants.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields overall.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
