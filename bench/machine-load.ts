import { readFileSync } from 'node:fs';

/** Busy and total jiffies of all CPUs from /proc/stat; undefined where /proc is missing. */
function cpuTimes(): { busy: number; total: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal …: idle and iowait are the time nobody used.
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/**
 * How much of the machine's CPU other work used over one second, in percent. The one-minute load average
 * lags behind by a minute; this says whether anything is running right now, before the bench adds its own.
 */
export async function machineBusyPercent(sampleMs = 1_000): Promise<number> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const after = cpuTimes();
  if (!before || !after || after.total === before.total) return 0;
  return Math.round((100 * (after.busy - before.busy)) / (after.total - before.total));
}
