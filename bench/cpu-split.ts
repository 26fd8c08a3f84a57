// Where a benchmark run's CPU goes, per process, from /proc (Linux; elsewhere the split is simply not printed). On a
// machine whose cores are all busy, events/s is the cores divided by the CPU one event costs across every process:
// this split says which process to make cheaper, and what a throughput target asks of each.
import { readdirSync, readFileSync } from 'node:fs';

export type CpuSplit = Record<string, number>;
export type ProcessGroups = Record<string, () => number[]>;

const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
  } catch {
    return 0; // gone, or no /proc
  }
}

/** The processes of a local PostgreSQL server (its backends come and go with the pools). */
export function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number)
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('postgres');
        } catch {
          return false;
        }
      });
  } catch {
    return [];
  }
}

/** CPU ms used so far by each group, per pid (so a process that started meanwhile counts from zero). */
export function sampleCpu(groups: ProcessGroups): Map<string, Map<number, number>> {
  return new Map(Object.entries(groups).map(([label, pids]) => [label, new Map(pids().map((pid) => [pid, cpuMsOf(pid)]))]));
}

/** CPU ms per event of each group between two samples; empty where /proc is not there. */
export function cpuPerEvent(before: Map<string, Map<number, number>>, after: Map<string, Map<number, number>>, events: number): CpuSplit {
  const split: CpuSplit = {};
  for (const [label, pids] of after) {
    let ms = 0;
    for (const [pid, used] of pids) ms += used - (before.get(label)?.get(pid) ?? 0);
    if (ms > 0) split[label] = Math.round((ms / events) * 10) / 10;
  }
  return split;
}

export function formatSplit(split: CpuSplit | undefined, cores: number): string | undefined {
  if (!split || Object.keys(split).length === 0) return undefined;
  const total = Object.values(split).reduce((a, b) => a + b, 0);
  const parts = Object.entries(split)
    .map(([label, ms]) => `${label} ${ms}`)
    .join(', ');
  return `CPU ms per event: ${parts}; total ${total.toFixed(1)} (on ${cores} cores at most ${Math.round((cores * 1000) / total)} events/s)`;
}
