import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time per process from /proc (Linux; empty elsewhere), so a run can say where the machine's CPU went:
 * the server, the generator, the stack's servers, or somebody else's processes on a shared box.
 */
export type ProcSnapshot = Map<
  number,
  { readonly comm: string; readonly started: number; readonly ticks: number }
>;

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

export function procSnapshot(): ProcSnapshot {
  const snapshot: ProcSnapshot = new Map();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return snapshot;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const open = stat.indexOf('(');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(open + 1, close);
      // Fields after the command: state is field 3, utime 14, stime 15, starttime 22 (1-based, man 5 proc).
      const rest = stat.slice(close + 2).split(' ');
      const ticks = Number(rest[11]) + Number(rest[12]);
      const started = Number(rest[19]);
      if (Number.isFinite(ticks)) snapshot.set(Number(pid), { comm, started, ticks });
    } catch {
      // The process ended meanwhile.
    }
  }
  return snapshot;
}

const KNOWN: Record<string, string> = {
  java: 'Kafka (java)',
  'clickhouse-serv': 'ClickHouse',
  'redis-server': 'Redis',
  postgres: 'PostgreSQL',
};

/**
 * CPU between two snapshots, in % of one core, grouped: the processes named in `roles` by their role, the
 * stack's servers by product, everything else as "other processes". Largest first.
 */
export function cpuBetween(
  before: ProcSnapshot,
  after: ProcSnapshot,
  seconds: number,
  roles: ReadonlyMap<number, string>,
): { name: string; percent: number }[] {
  const groups = new Map<string, number>();
  for (const [pid, now] of after) {
    const was = before.get(pid);
    // A pid that was reused meanwhile is a new process: everything it used fell in the window.
    const ticks = was && was.started === now.started ? now.ticks - was.ticks : now.ticks;
    if (ticks <= 0) continue;
    const name = roles.get(pid) ?? KNOWN[now.comm] ?? 'other processes';
    groups.set(name, (groups.get(name) ?? 0) + ticks);
  }
  return [...groups]
    .map(([name, ticks]) => ({ name, percent: (100 * ticks) / USER_HZ / seconds }))
    .sort((a, b) => b.percent - a.percent);
}
