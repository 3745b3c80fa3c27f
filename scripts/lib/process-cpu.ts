// CPU time of Chromium's processes, by process and thread, read from Linux's /proc while a benchmark runs. A CPU
// profile of the service worker sees only the worker's thread; a page's cost is also the browser process's (its
// IndexedDB backend and LevelDB's compactions run on its thread pool), the network service's and the renderer's
// other threads. CPU seconds are steadier than the clock on a shared machine: the load slows a run, it adds little
// work. Linux only: elsewhere nothing is sampled.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Clock ticks a second in /proc's counters (USER_HZ: 100 on every Linux build in use). */
const TICKS = 100;

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process or thread ended meanwhile
  }
};

/** A process's arguments (Chromium's child processes rewrite theirs as one string with spaces). */
const argv = (pid: number | string): string[] => read(`/proc/${pid}/cmdline`)?.split(/[\0 ]/).filter(Boolean) ?? [];

/** utime + stime of a /proc stat line, in seconds (fields 14 and 15, counted after the command's closing parenthesis). */
function cpuSeconds(stat: string): number {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / TICKS;
}

/** The Chromium browser process (not a child: no --type=) whose command line holds `marker` (its profile directory). */
export function browserPid(marker: string): number | undefined {
  if (!existsSync('/proc')) return undefined;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmd = argv(name);
    if (cmd.some((a) => a.includes(marker)) && !cmd.some((a) => a.startsWith('--type=')) && /chrom/i.test(cmd[0] ?? '')) return Number(name);
  }
  return undefined;
}

/** CPU seconds used so far by a process and its descendants (those still alive). */
export function treeCpuSeconds(root: number): number {
  let seconds = 0;
  for (const pid of tree(root)) {
    const stat = read(`/proc/${pid}/stat`);
    if (stat) seconds += cpuSeconds(stat);
  }
  return seconds;
}

/** A process and its descendants. */
function tree(root: number): number[] {
  const out: number[] = [];
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    out.push(pid);
    for (const tid of tasks(pid)) {
      const kids = read(`/proc/${pid}/task/${tid}/children`)?.trim();
      if (kids) todo.push(...kids.split(/\s+/).map(Number));
    }
  }
  return out;
}

function tasks(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/** What a Chromium process is, from its command line. */
function kindOf(cmd: string[]): string {
  const type = cmd.find((a) => a.startsWith('--type='))?.slice(7);
  if (!type) return 'browser';
  if (type === 'renderer' && cmd.includes('--extension-process')) return 'extension';
  if (type === 'utility') {
    const sub = cmd.find((a) => a.startsWith('--utility-sub-type='))?.slice(19) ?? '';
    return sub.includes('NetworkService') ? 'network service' : sub.includes('Storage') ? 'storage service' : 'utility';
  }
  return type;
}

/** Thread names as Chromium sets them, numbered ones grouped ("ThreadPoolForeg" for every foreground pool worker). */
const threadGroup = (comm: string) => comm.trim().replace(/\d+$/, '');

/** CPU seconds so far by thread ("pid/tid"), with the part each counts for ("browser: ThreadPoolForeg"). */
type Snapshot = { at: number; threads: Map<string, { part: string; seconds: number }> };

function snapshot(root: number): Snapshot {
  const threads = new Map<string, { part: string; seconds: number }>();
  for (const pid of tree(root)) {
    const cmd = argv(pid);
    if (cmd.length === 0) continue;
    const kind = kindOf(cmd);
    for (const tid of tasks(pid)) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      const comm = read(`/proc/${pid}/task/${tid}/comm`);
      if (stat && comm !== undefined) threads.set(`${pid}/${tid}`, { part: `${kind}: ${threadGroup(comm)}`, seconds: cpuSeconds(stat) });
    }
  }
  // This process too (a benchmark's own: the site it serves, and Crawlee in its round).
  const own = process.cpuUsage();
  threads.set('self', { part: 'benchmark process', seconds: (own.user + own.system) / 1e6 });
  return { at: Date.now(), threads };
}

/** Samples a Chromium's processes every `everyMs` until stopped; `between` sums each part's CPU over a time window. */
export class ChromiumCpu {
  private readonly samples: Snapshot[] = [];
  private readonly timer: ReturnType<typeof setInterval>;

  private constructor(private readonly root: number, everyMs: number) {
    this.samples.push(snapshot(root));
    this.timer = setInterval(() => this.samples.push(snapshot(root)), everyMs);
  }

  /** Starts sampling the browser whose command line holds `marker`; undefined where there is no /proc or no such browser. */
  static start(marker: string, everyMs = 500): ChromiumCpu | undefined {
    const pid = browserPid(marker);
    return pid === undefined ? undefined : new ChromiumCpu(pid, everyMs);
  }

  /** Takes a last sample and stops (call before the browser closes). */
  stop(): void {
    clearInterval(this.timer);
    this.samples.push(snapshot(this.root));
  }

  /**
   * CPU seconds by part from the last sample at or before `from` to the last at or before `to` (wall-clock ms). A thread
   * that began in the window counts from zero; one that ended in it counts to its last sample.
   */
  between(from: number, to: number): Map<string, number> {
    const before = [...this.samples].reverse().find((s) => s.at <= from) ?? this.samples[0]!;
    const inWindow = this.samples.filter((s) => s.at > before.at && s.at <= to);
    const last = new Map<string, { part: string; seconds: number }>();
    for (const s of inWindow) for (const [k, v] of s.threads) last.set(k, v);
    const parts = new Map<string, number>();
    for (const [k, v] of last) {
      const d = v.seconds - (before.threads.get(k)?.seconds ?? 0);
      if (d > 0) parts.set(v.part, (parts.get(v.part) ?? 0) + d);
    }
    return parts;
  }
}
