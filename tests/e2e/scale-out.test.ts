// Many browsers, one crawl (docs/scale-out.md): command-line workers, each its own Chromium and profile, on one
// crawl in a redis-server started here, against a web of loopback hosts. Checked on the server's own request log:
// two workers request no page (nor robots.txt) twice, hold the budget in total, and each page is in exactly one
// worker's pages.jsonl. Then a third worker is killed (SIGKILL, its browser with it) while it holds leases: once they
// lapse, the others fetch those URLs, and nothing of the crawl is lost.
// @module-tag chromium
// @module-tag redis
// @module-tag firefox
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../scripts/lib/browser';
import { parseConfig } from '../../lib/app/parse-config';
import { RedisFrontier } from '../../lib/store/shared/redis-frontier';
import { urlKey } from '../../lib/store/shared/redis-entries';
import { seedEntries } from '../../lib/app/shared-run';
import { startWebOfHosts, type WebOfHosts } from '../fixtures/sites/web-of-hosts';
import { startRedis, type RedisProcess } from '../support/redis-server';

const ROOT = join(import.meta.dirname, '..', '..');

interface Worker {
  name: string;
  out: string;
  profile: string;
  child: ChildProcess;
  exited: Promise<number>;
  output: () => string;
}

describe('a crawl shared by several browsers through Redis', () => {
  let redis: RedisProcess;
  let site: WebOfHosts;
  const dir = mkdtempSync(join(tmpdir(), 'focus-scale-out-'));
  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
    site = await startWebOfHosts({ hosts: 6, pagesPerHost: 8, linksPerPage: 4, latencyMs: 80 });
  });
  afterAll(async () => {
    await site?.close();
    await redis?.stop();
  });

  const configFile = (name: string, maxPages: number, more: Record<string, unknown> = {}) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({
      name, seeds: site.hosts.map((h) => `http://${h}/`), topic: { keywords: ['telescope'] }, budget: { maxPages },
      politeness: { delayMs: 300, concurrency: 2, perHost: 1 }, ...more,
    }));
    return file;
  };

  const startWorker = (name: string, config: string, extra: string[] = []): Worker => {
    const out = join(dir, `out-${name}`);
    const profile = join(dir, `profile-${name}`);
    const args = ['tsx', 'scripts/crawl.ts', '--config', config, '--out', out, '--profile', profile, '--host-rules', `MAP *.test 127.0.0.1:${site.port}`,
      '--frontier', redis.url, '--worker', name, ...extra];
    // Its own process group: a SIGKILL to the group takes npx, tsx and the runner at once.
    const child = spawn('npx', args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout!.on('data', (b: Buffer) => (text += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (text += b.toString()));
    const exited = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : -1))));
    return { name, out, profile, child, exited, output: () => text };
  };

  const pagesOf = (w: Worker): string[] => {
    const file = join(w.out, 'pages.jsonl');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { url: string }).url);
  };
  const pageRequests = (from = 0) => site.requests.slice(from).map((r) => r.url).filter((u) => !u.endsWith('/robots.txt'));

  it('two workers: no page requested twice, the budget held in total, each page fetched by exactly one worker', { timeout: 150_000 }, async () => {
    const config = configFile('telescopes', 30);
    const from = site.requests.length;
    const workers = [startWorker('alpha', config), startWorker('beta', config)];
    const codes = await Promise.all(workers.map((w) => w.exited));
    expect(codes, workers.map((w) => w.output()).join('\n----\n')).toEqual([0, 0]);

    const requested = pageRequests(from);
    expect(requested.length).toBe(new Set(requested).size); // no page asked twice
    expect(requested.length).toBe(30); // the budget, in total (the web has 48 pages)
    // robots.txt read once per host for the whole crawl, not once per browser.
    const robots = site.requests.slice(from).map((r) => r.url).filter((u) => u.endsWith('/robots.txt'));
    expect(robots.length).toBe(new Set(robots).size);
    const [a, b] = workers.map(pagesOf);
    expect(a!.length).toBeGreaterThan(0);
    expect(b!.length).toBeGreaterThan(0);
    expect(a!.filter((u) => b!.includes(u))).toEqual([]); // each page in one worker's pages.jsonl only
    expect(new Set([...a!, ...b!])).toEqual(new Set(requested));
    const summary = JSON.parse(readFileSync(join(workers[0]!.out, 'summary.json'), 'utf8'));
    expect(summary.fetched).toBe(30); // the crawl's total, read from Redis
    expect(summary.shared.byWorker).toEqual({ alpha: a!.length, beta: b!.length });

    // The crawl has ended: a worker coming back on its own profile writes what it fetched, crawls nothing, exits 0.
    const again = startWorker('alpha', config);
    expect(await again.exited, again.output()).toBe(0);
    expect(new Set(pagesOf(again))).toEqual(new Set(a));
    expect(pageRequests(from).length).toBe(30);

    // Progress without crawling.
    const status = startStatus('telescopes');
    expect(await status.exited).toBe(0);
    expect(status.output()).toMatch(/telescopes: ended: page budget reached \(30 pages\)[\s\S]*fetched 30/);
  });

  it('a Chromium worker and a Firefox worker: no page requested twice, the budget held, both commit pages', { timeout: 240_000 }, async () => {
    ensureBuilt(undefined, 'firefox');
    const config = configFile('mixed', 30);
    const parsed = parseConfig(JSON.parse(readFileSync(config, 'utf8')));
    // Held until both have joined (Firefox starts slower), then let go together.
    const admin = new Redis(redis.url);
    const frontier = new RedisFrontier(admin, 'mixed');
    await frontier.join(JSON.stringify(parsed), seedEntries(parsed, Date.now()));
    await admin.set(frontier.key('held'), '1');
    const from = site.requests.length;
    const workers = [startWorker('chromium', config), startWorker('firefox', config, ['--browser', 'firefox'])];
    try {
      // Both crawls started in their browsers (Firefox starts slower): let go.
      await expect.poll(() => workers.filter((w) => /crawl \d+ started in the extension/.test(w.output())).length, { timeout: 180_000, interval: 200 }).toBe(2);
      await admin.del(frontier.key('held'));
      const codes = await Promise.all(workers.map((w) => w.exited));
      expect(codes, workers.map((w) => w.output()).join('\n----\n')).toEqual([0, 0]);
    } finally {
      admin.disconnect();
      for (const w of workers) killAll(w);
    }
    const requested = pageRequests(from);
    expect(requested.length).toBe(new Set(requested).size); // no page asked twice, by either browser
    expect(requested.length).toBe(30);
    const [chromium, firefox] = workers.map(pagesOf);
    expect(chromium!.length).toBeGreaterThan(0);
    expect(firefox!.length).toBeGreaterThan(0);
    expect(new Set([...chromium!, ...firefox!])).toEqual(new Set(requested));
    const summary = JSON.parse(readFileSync(join(workers[1]!.out, 'summary.json'), 'utf8'));
    expect(summary.shared.byWorker).toEqual({ chromium: chromium!.length, firefox: firefox!.length });
  });

  it('training on a shared crawl: each link source requested once in total, and no crawl request before training is over', { timeout: 150_000 }, async () => {
    const sources = ['http://h1.test/p2', 'http://h3.test/p4', 'http://h4.test/p1', 'http://h5.test/p3'];
    const config = configFile('finders', 20, {
      training: { linkSources: sources, positive: ['http://h0.test/*', 'http://h1.test/*'], negative: ['http://h2.test/*'] },
    });
    const from = site.requests.length;
    const workers = [startWorker('gamma', config), startWorker('delta', config)];
    const codes = await Promise.all(workers.map((w) => w.exited));
    expect(codes, workers.map((w) => w.output()).join('\n----\n')).toEqual([0, 0]);

    const requested = pageRequests(from);
    for (const s of sources) expect(requested.filter((u) => u === s), s).toHaveLength(1);
    const lastSource = Math.max(...sources.map((s) => requested.indexOf(s)));
    expect(requested.slice(0, lastSource + 1).filter((u) => !sources.includes(u))).toEqual([]); // training first
    const crawled = requested.slice(lastSource + 1);
    expect(crawled.length).toBe(new Set(crawled).size);
    expect(crawled.length).toBe(20); // the budget counts crawl requests, not training reads
    const summary = JSON.parse(readFileSync(join(workers[0]!.out, 'summary.json'), 'utf8'));
    expect(summary.fetched).toBe(20);
  });

  it("a worker killed mid-crawl: its leased URLs are fetched by the others once its leases lapse", { timeout: 150_000 }, async () => {
    const config = configFile('eyepieces', 1000);
    const from = site.requests.length;
    const lease = ['--lease-seconds', '3'];
    // The doomed worker first, killed while it holds leases (the runner and its browser, as a power loss would); the
    // others start then, so they cannot finish the web before it takes any.
    const doomed = startWorker('doomed', config, lease);
    const workers = [doomed];
    const watcher = new Redis(redis.url);
    const frontier = new RedisFrontier(watcher, 'eyepieces');
    const doomedLeases = async () =>
      Object.entries(await watcher.hgetall(frontier.key('lease'))).filter(([, v]) => v.startsWith('doomed#')).map(([u]) => u);
    let held: string[] = [];
    try {
      await expect.poll(async () => (await doomedLeases()).length, { timeout: 90_000, interval: 50 }).toBeGreaterThan(0);
      killAll(doomed);
      held = await doomedLeases();
      expect(held.length).toBeGreaterThan(0);
      workers.unshift(startWorker('one', config, lease), startWorker('two', config, lease));
      const codes = await Promise.all(workers.slice(0, 2).map((w) => w.exited));
      expect(codes, workers.map((w) => w.output()).join('\n----\n')).toEqual([0, 0]);
    } finally {
      watcher.disconnect();
      killAll(doomed);
    }
    // The leases are keyed by the URLs' keys in Redis.
    const others = new Set([...pagesOf(workers[0]!), ...pagesOf(workers[1]!)].map(urlKey));
    for (const key of held) expect(others.has(key), key).toBe(true);
    // Nothing lost: every page of the web was requested.
    expect(new Set(pageRequests(from))).toEqual(new Set(site.urls));
    expect(workers.slice(0, 2).map((w) => w.output()).join('\n')).toMatch(/retook \d+ URL\(s\) whose lease expired|frontier empty/);
  });

  it('a bad Redis or another config under the same name: one line, exit 2, before any request to a site', { timeout: 120_000 }, async () => {
    const from = site.requests.length;
    const config = configFile('refractors', 30);
    const other = configFile('refractors-other', 31);
    writeFileSync(other, readFileSync(other, 'utf8').replace('"refractors-other"', '"refractors"'));
    // Another worker created "refractors" with the first config.
    const parsed = parseConfig(JSON.parse(readFileSync(config, 'utf8')));
    const admin = new Redis(redis.url);
    await new RedisFrontier(admin, 'refractors').join(JSON.stringify(parsed), seedEntries(parsed, Date.now()));
    admin.disconnect();
    const locked = await startRedis(['--requirepass', 'right']);
    const cases: [string[], RegExp][] = [
      [['--frontier', 'redis://127.0.0.1:1'], /^focus: cannot reach Redis at 127\.0\.0\.1:1 /],
      [['--frontier', locked.url.replace('redis://', 'redis://:nope@')], /^focus: Redis at 127\.0\.0\.1:\d+ refused the password/],
      [['--frontier', redis.url, '--config', other], /^focus: a crawl named "refractors" already runs on this Redis with another config/],
    ];
    try {
      for (const [args, says] of cases) {
        const run = runCli(['--config', config, '--out', join(dir, 'out-bad'), ...args]);
        expect(await run.exited, run.output()).toBe(2);
        expect(run.output().trim().split('\n')).toHaveLength(1);
        expect(run.output()).toMatch(says);
      }
    } finally {
      await locked.stop();
    }
    expect(site.requests.length).toBe(from);
  });

  const runCli = (args: string[]) => {
    const child = spawn('npx', ['tsx', 'scripts/crawl.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (b: Buffer) => (text += b.toString()));
    child.stderr.on('data', (b: Buffer) => (text += b.toString()));
    return { exited: new Promise<number>((r) => child.on('exit', (c) => r(c ?? -1))), output: () => text };
  };

  const startStatus = (name: string) => runCli(['--frontier', redis.url, '--status', name]);

  /** SIGKILL to the worker's process group and to every process of its browser profile, by id. */
  function killAll(w: Worker): void {
    try {
      process.kill(-w.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(w.profile)) process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone meanwhile, or not ours to read
      }
    }
  }
});
