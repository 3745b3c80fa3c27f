// Where the browser's storage spends its CPU, from a Chromium startup trace (JSON) of a crawl: the browser process's
// thread pool by the source of each task (LevelDB's compactions, IndexedDB's requests, LevelDB scopes' cleanup, IPC),
// and the worker's IndexedDB requests by kind and object store (what preparing each costs the worker: cloning its
// value). Thread CPU time, not wall time: on a shared machine a thread waits for a core. `crawl-speed.ts --trace-out
// FILE` records such a trace of its first Focus crawl and prints this; the file is read as a stream, one event a line
// (a 2,000-page crawl's trace is about half a gigabyte).
//   npx tsx scripts/bench/storage-trace.ts FILE [--pages N]
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/** The categories the trace records: task sources, IndexedDB's operations and LevelDB's. */
export const STORAGE_TRACE_CATEGORIES = 'toplevel,IndexedDB,leveldb';

/** Chromium's flags for a startup trace into `file` (written when the browser closes). */
export function storageTraceArgs(file: string): string[] {
  return [`--trace-startup=${STORAGE_TRACE_CATEGORIES}`, '--trace-startup-format=json', `--trace-startup-file=${file}`, '--trace-startup-duration=3600'];
}

interface TraceEvent {
  ph: string;
  name: string;
  cat: string;
  pid: number;
  tid: number;
  tdur?: number;
  args?: Record<string, unknown>;
}

export interface StorageTrace {
  /** CPU ms of the browser process's thread pool, by what posted the task (file and function), largest first. */
  browserTasks: [string, number][];
  /** The worker's IndexedDB requests: kind and store, how many, CPU ms preparing them. */
  workerRequests: { what: string; count: number; ms: number }[];
}

/** A task's source, said as the part of Chromium it belongs to where known. */
function taskSource(file: string, fn: string): string {
  if (file.includes('leveldatabase/env_chromium')) return 'LevelDB compactions (background)';
  if (file.includes('indexed_db/instance/bucket_context')) return 'IndexedDB requests and commits';
  if (file.includes('leveldb_scopes')) return "LevelDB scopes (each read-write transaction's undo log, cleared after it commits)";
  if (file.startsWith('mojo/')) return 'IPC (mojo)';
  return `${file}:${fn}`;
}

export async function readStorageTrace(file: string): Promise<StorageTrace> {
  const threads = new Map<string, string>();
  const processes = new Map<number, string>();
  const tasks: TraceEvent[] = [];
  const setups: TraceEvent[] = [];
  const lines = createInterface({ input: createReadStream(file) });
  for await (let line of lines) {
    line = line.trim();
    if (!line.startsWith('{"')) continue;
    if (line.endsWith(',')) line = line.slice(0, -1);
    let e: TraceEvent;
    try {
      e = JSON.parse(line) as TraceEvent;
    } catch {
      continue; // the header and the closing lines
    }
    if (e.ph === 'M') {
      if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, String(e.args?.name));
      if (e.name === 'process_name') processes.set(e.pid, String(e.args?.name));
    } else if (e.ph === 'X' && e.tdur !== undefined) {
      if (e.cat === 'toplevel' && e.name === 'ThreadPool_RunTask') tasks.push(e);
      else if (e.cat === 'IndexedDB' && e.name.endsWith('RequestSetup')) setups.push(e);
    }
  }
  const browserTasks = new Map<string, number>();
  for (const e of tasks) {
    if (processes.get(e.pid) !== 'Browser' || !threads.get(`${e.pid}:${e.tid}`)?.startsWith('ThreadPool')) continue;
    const k = taskSource(String(e.args?.src_file ?? ''), String(e.args?.src_func ?? ''));
    browserTasks.set(k, (browserTasks.get(k) ?? 0) + e.tdur! / 1000);
  }
  const requests = new Map<string, { what: string; count: number; ms: number }>();
  for (const e of setups) {
    const what = `${e.name.replace(/RequestSetup$/, '')} ${String(e.args?.store_name ?? e.args?.index_name ?? '')}`.trim();
    const r = requests.get(what) ?? { what, count: 0, ms: 0 };
    r.count++;
    r.ms += e.tdur! / 1000;
    requests.set(what, r);
  }
  return {
    browserTasks: [...browserTasks].sort((a, b) => b[1] - a[1]),
    workerRequests: [...requests.values()].sort((a, b) => b.ms - a.ms),
  };
}

/** The trace a page: `pages` is every page the traced browser stored (training reads too). */
export function formatStorageTrace(t: StorageTrace, pages: number): string {
  const perPage = (ms: number) => `${(ms / pages).toFixed(2)} ms`;
  const total = t.browserTasks.reduce((a, [, ms]) => a + ms, 0);
  return [
    `the browser's thread pool a page (${pages} pages stored; traced tasks ${perPage(total)}):`,
    ...t.browserTasks.slice(0, 6).map(([k, ms]) => `  ${perPage(ms).padStart(9)}  ${(ms / total * 100).toFixed(0).padStart(3)}%  ${k}`),
    `the worker preparing IndexedDB requests, a page (count a page, CPU):`,
    ...t.workerRequests.slice(0, 8).map((r) => `  ${perPage(r.ms).padStart(9)}  ${(r.count / pages).toFixed(1).padStart(5)}  ${r.what}`),
  ].join('\n');
}

async function main(): Promise<void> {
  const { values: v, positionals } = parseArgs({ allowPositionals: true, options: { pages: { type: 'string', default: '1' } } });
  if (!positionals[0]) throw new Error('usage: storage-trace.ts FILE [--pages N]');
  console.log(formatStorageTrace(await readStorageTrace(positionals[0]), Number(v.pages)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(`storage-trace: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
}
