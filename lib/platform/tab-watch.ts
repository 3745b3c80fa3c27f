// What the rendering tab's guard knows of one page being rendered, whichever browser API feeds it: the requests it
// stopped, whether the page's network is quiet, whether it loaded, and the last document its top frame was let load.
// Chrome feeds it from the debugger (debugger-guard.ts), Firefox from blocking webRequest (web-request-guard.ts);
// both ask the same request gate through `RenderRequest.guard`, so a page is stopped for the same reasons in both.
import type { BlockedRequest, PageRequest, RenderRequest } from '../fetch/render';

export class TabWatch {
  readonly blocked: BlockedRequest[] = [];
  private readonly inflight = new Set<string>();
  private lastNetwork = Date.now();
  /** Why the tab went away mid-render (closed, crashed, rendering cancelled), or null. */
  detached: string | null = null;
  loaded = false;
  private firstDocument = true;
  /** The last document the tab's top frame was let load: the page read must be the page the gate fetched. */
  mainDocument: string | null = null;

  constructor(readonly tabId: number, private readonly req: RenderRequest) {}

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
