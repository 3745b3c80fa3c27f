// A Clock whose time moves only when a test moves it, so that politeness delays, retry backoffs, Retry-After
// and robots.txt outages are waited out in no wall time. `runUntilIdle()` lets a whole crawl run: whenever the
// process has nothing left to do but sleep, time jumps to the next sleeper's wake-up.
import type { Clock, FetchPort, PortResponse } from '../../lib/net/fetcher';

interface Sleeper {
  at: number;
  wake: () => void;
}

export class VirtualClock implements Clock {
  private time: number;
  private sleepers: Sleeper[] = [];
  private held = 0;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    return new Promise<void>((wake) => {
      this.sleepers.push({ at: this.time + Math.max(0, ms), wake });
    });
  }

  /** Sleepers not yet woken. */
  get pending(): number {
    return this.sleepers.length;
  }

  /** Moves time forward by `ms`, waking the sleepers due in the order they are due, each run before the next. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await this.settle();
      const next = this.earliest();
      if (!next || next.at > end) break;
      this.wakeAt(next.at);
    }
    this.time = end;
    await this.settle();
  }

  /** Wakes sleepers in turn, time jumping to each one's wake-up once nothing else is left to run, until none sleeps. */
  async runUntilIdle(): Promise<void> {
    for (;;) {
      await this.settle();
      const next = this.earliest();
      if (!next) return;
      this.wakeAt(next.at);
    }
  }

  /**
   * `port` with each request taking no virtual time: time stands still until its answer has been read whole.
   * Without it, time could jump while a request is on the wire, and a 0.7 s politeness delay pass during it.
   */
  hold(port: FetchPort): FetchPort {
    return async (url, init) => {
      this.held++;
      try {
        const r = await port(url, init);
        const body = r.body === null ? null : await r.arrayBuffer();
        const whole: PortResponse = new Response(body, { status: r.status, statusText: r.statusText, headers: r.headers });
        if (r.cookieTrace) whole.cookieTrace = r.cookieTrace;
        return whole;
      } finally {
        this.held--;
      }
    };
  }

  private earliest(): Sleeper | undefined {
    let first: Sleeper | undefined;
    for (const s of this.sleepers) if (!first || s.at < first.at) first = s;
    return first;
  }

  private wakeAt(at: number): void {
    this.time = Math.max(this.time, at);
    const due = this.sleepers.filter((s) => s.at <= this.time);
    this.sleepers = this.sleepers.filter((s) => s.at > this.time);
    for (const s of due) s.wake();
  }

  /**
   * Returns once the process is quiet twice in a row: no request held and no task queued with setImmediate (how
   * fake-indexeddb schedules every IndexedDB step). What is then still waiting waits on this clock.
   */
  private async settle(): Promise<void> {
    let quiet = 0;
    while (quiet < 2) {
      await new Promise<void>((r) => (this.held > 0 ? setTimeout(r, 1) : setImmediate(r)));
      quiet = this.held === 0 && !process.getActiveResourcesInfo().includes('Immediate') ? quiet + 1 : 0;
    }
  }
}
