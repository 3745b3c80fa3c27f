// What the rendering tab's guard knows of one page being rendered, whichever browser API feeds it: the requests it
// stopped, whether the page's network is quiet, whether it loaded, and the last document its top frame was let load.
// Chrome feeds it from the debugger (debugger-guard.ts), Firefox from blocking webRequest (web-request-guard.ts);
// both ask the same request gate through `RenderRequest.guard`, so a page is stopped for the same reasons in both.
import type { BlockedRequest, PageRequest, RenderRequest } from '../net/render';
import type { PageResource } from '../records/types';

/** How long the responses still being read when the page is read may take before they are left out. */
const CAPTURE_WAIT_MS = 5000;

export class TabWatch {
  readonly blocked: BlockedRequest[] = [];
  private readonly inflight = new Set<string>();
  private lastNetwork = Date.now();
  /** Why the tab went away mid-render (closed, crashed, rendering cancelled), or null. */
  detached: string | null = null;
  /** When the page's load event came (Date.now()), or null before it. */
  private loadedAt: number | null = null;
  private firstDocument = true;
  /** The last document the tab's top frame was let load: the page read must be the page the gate fetched. */
  mainDocument: string | null = null;

  /** What the tab loaded besides the page, kept for the archive (`RenderRequest.capture`). */
  readonly resources: PageResource[] = [];
  private captureLeft: number;
  private readonly capturing = new Set<Promise<void>>();

  constructor(readonly tabId: number, private readonly req: RenderRequest) {
    this.captureLeft = req.capture.bytes;
  }

  /**
   * Whether a response of the tab is one to keep, before its body is read: a web URL other than the page's (whose
   * response the crawl has), a success, not kept already by this page or the crawl, and `bytes` (when known) within
   * what is left of the page's capture.
   */
  wants(url: string, status: number, bytes = 0): boolean {
    if (this.req.capture.bytes === 0 || !/^https?:/.test(url) || url === this.req.url || status < 200 || status > 299) return false;
    if (bytes > this.captureLeft || this.req.capture.skip(url)) return false;
    return !this.resources.some((r) => r.url === url);
  }

  /** Keeps a response the browser read for it, when it still fits the page's capture. */
  keep(resource: PageResource): void {
    if (!this.wants(resource.url, resource.status, resource.payload.byteLength)) return;
    this.captureLeft -= resource.payload.byteLength;
    this.resources.push(resource);
  }

  /** A body being read for `keep`: the page's read waits for it (briefly). */
  reading(body: Promise<void>): void {
    const p = body.catch(() => undefined).finally(() => this.capturing.delete(p));
    this.capturing.add(p);
  }

  /** The responses kept, once the bodies still being read are in (or `CAPTURE_WAIT_MS` has passed). */
  async captured(): Promise<PageResource[]> {
    if (this.capturing.size) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise((r) => (timer = setTimeout(r, CAPTURE_WAIT_MS)));
      await Promise.race([Promise.all(this.capturing), late]);
      clearTimeout(timer);
    }
    return [...this.resources];
  }

  get loaded(): boolean {
    return this.loadedAt !== null;
  }

  set loaded(yes: boolean) {
    if (yes) this.loadedAt ??= Date.now();
  }

  /** When the page's load event came, or null before it. */
  get loadTime(): number | null {
    return this.loadedAt;
  }

  get networkQuietMs(): number {
    return this.inflight.size ? 0 : Date.now() - this.lastNetwork;
  }

  /** True once the tab's own first document was asked for (what loads before it is the blank tab). */
  get navigated(): boolean {
    return !this.firstDocument;
  }

  requestStarted(id: string): void {
    this.inflight.add(id);
    this.lastNetwork = Date.now();
  }

  requestEnded(id: string): void {
    this.inflight.delete(id);
    this.lastNetwork = Date.now();
  }

  /**
   * The gate's word on one request of the page: null to let it go, or why it is stopped (then it is listed).
   * `topFrame`: a document of the tab's top frame, not of a frame in the page.
   */
  async decide(r: PageRequest, topFrame: boolean): Promise<string | null> {
    // The page's own first load was let through by the request gate already.
    const first = r.navigation && this.firstDocument;
    if (r.navigation) this.firstDocument = false;
    const reason = first ? null : await this.req.guard(r);
    if (r.navigation && reason === null && (first || topFrame)) this.mainDocument = r.url;
    if (reason !== null) this.blocked.push({ url: r.url, method: r.method, reason });
    return reason;
  }
}

/** How one browser watches and guards the requests of a tab it renders in. */
export interface TabGuard {
  /** Why this browser cannot guard a tab now (a permission not given), or null when it can. */
  unavailable(): string | null;
  /** Starts guarding the watch's tab, still blank, before anything is loaded in it. */
  attach(watch: TabWatch, req: RenderRequest): Promise<void>;
  /** Loads the page in the guarded tab; throws when the browser says it could not. */
  navigate(watch: TabWatch, url: string): Promise<void>;
  /** Stops guarding the tab (it is about to be closed). */
  detach(watch: TabWatch): Promise<void>;
}
