// What the webRequest listeners saw of the worker's requests, by URL, until the fetch that made each asks: a
// redirect's status and Location (which fetch's opaque answer hides), the cookies it carried and cleared, or the
// browser's word on why it failed. A fetch and its webRequest events cross processes separately, so either may come
// first: a fetch waits for what it needs, woken by any event for its URL.
import type { CookieTrace } from '../net/session';
import { headerValues, type HeadersDetails } from './web-request';

export interface Seen {
  requestId: string;
  status: number;
  location: string | null;
  /** Present when a listener that sees cookies observed the request. */
  cookies?: CookieTrace;
  at: number;
}

/** Observations older than this are dropped (a request nobody asked about). */
const KEEP_MS = 60_000;

export class RequestObservations {
  private readonly seen = new Map<string, Seen[]>();
  /**
   * The observations of the last KEEP_MS, by request, taken or not: the two listeners a Chrome request to a cookie host
   * has fill one, in either order, even once it was taken.
   */
  private readonly byRequest = new Map<string, Seen>();
  private readonly errors = new Map<string, { error: string; at: number }>();
  private readonly waiters = new Map<string, (() => void)[]>();
  private recorded = 0;

  /** A request's answer headers, with the cookies it carried and cleared when the listener sees them. */
  record(d: HeadersDetails, cookies?: CookieTrace): void {
    let s = this.byRequest.get(d.requestId);
    if (!s) {
      // Now and then, what nobody asked about goes (a request whose cookies came to be observed while it was made).
      if (++this.recorded % 1000 === 0) this.dropStale(Date.now());
      const location = d.statusCode >= 300 && d.statusCode <= 399 ? headerValues(d.responseHeaders, 'location')[0] ?? null : null;
      s = { requestId: d.requestId, status: d.statusCode, location, at: Date.now() };
      this.byRequest.set(d.requestId, s);
      const list = this.seen.get(d.url) ?? [];
      list.push(s);
      this.seen.set(d.url, list);
    }
    if (cookies) s.cookies = cookies;
    this.wake(d.url);
  }

  /** The browser's reason a request to `url` failed. */
  recordError(url: string, error: string): void {
    this.errors.set(url, { error, at: Date.now() });
    this.wake(url);
  }

  /** The first observation of `url`; with `withCookies`, once a listener that sees cookies has observed it too. */
  async observed(url: string, waitMs: number, withCookies: boolean): Promise<Seen | undefined> {
    await this.until(url, () => { const first = this.seen.get(url)?.[0]; return first !== undefined && (!withCookies || first.cookies !== undefined); }, waitMs);
    return this.take(url);
  }

  /** Why a request to `url` failed, as the browser says, waiting `waitMs` at most for its word. */
  async error(url: string, waitMs: number): Promise<string | undefined> {
    await this.until(url, () => this.errors.has(url), waitMs);
    const e = this.errors.get(url);
    this.errors.delete(url);
    return e && Date.now() - e.at < KEEP_MS ? e.error : undefined;
  }

  private dropStale(now: number): void {
    for (const u of [...this.seen.keys()]) {
      const list = this.fresh(u, now);
      if (list.length) this.seen.set(u, list);
      else this.seen.delete(u);
    }
    for (const [id, old] of this.byRequest) if (now - old.at >= KEEP_MS) this.byRequest.delete(id);
  }

  /** `url`'s observations not taken, of the last KEEP_MS, oldest first. */
  private fresh(url: string, now: number): Seen[] {
    return (this.seen.get(url) ?? []).filter((s) => now - s.at < KEEP_MS);
  }

  private take(url: string): Seen | undefined {
    const list = this.fresh(url, Date.now());
    const first = list.shift();
    if (list.length) this.seen.set(url, list);
    else this.seen.delete(url);
    return first;
  }

  private wake(url: string): void {
    const list = this.waiters.get(url) ?? [];
    this.waiters.delete(url);
    for (const w of list) w();
  }

  // Waits until `ready()`, or `waitMs`. Any event for the URL wakes the waiters, and each checks its own condition
  // again: the headers of a redirect Chromium then refuses come before its error, and must not end a wait for it.
  private until(url: string, ready: () => boolean, waitMs: number): Promise<void> {
    return ready()
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs);
          const wait = () => {
            if (!ready()) return void this.waiters.set(url, [...(this.waiters.get(url) ?? []), wait]);
            clearTimeout(timer);
            resolve();
          };
          const list = this.waiters.get(url) ?? [];
          list.push(wait);
          this.waiters.set(url, list);
        });
  }
}
