// The RenderPort: loading a page in the user's browser, with the user's session, and reading the DOM its scripts
// built. Only the request gate holds it (request-gate.ts, `render`), and asks it only for a page the gate already
// let through (the page was fetched first, so safety, scope, robots.txt, dedup and redirects hold), at that page's
// final URL. The browser implements it (lib/platform/tab-render.ts); in Node there is none and no page is rendered.
import type { GrowthStop, PageResource, RenderPhases } from '../records/types';

/** A request the rendered page makes by itself: its own scripts, images, frames, a navigation away. */
export interface PageRequest {
  url: string;
  method: string;
  /** The browser's resource type, lower case: document, script, xhr, fetch, image, ping, ... */
  type: string;
  /** True for a navigation of the page itself (`location.href = ...`, a meta refresh), not a resource. */
  navigation: boolean;
}

export interface RenderRequest {
  /** The page's URL as the gate's final answer had it. */
  url: string;
  /** How long the page may take to settle; what it shows then is read, marked as not settled. */
  timeoutMs: number;
  /** The page counts as settled when neither its network nor its DOM changed for this long. */
  quietMs: number;
  /** The tab's requests name the crawl in their User-Agent, as its own requests do (`politeness.identify`). */
  identify: boolean;
  /** Times a page is made to grow by scrolling it to its end (an endless feed). */
  scrolls: number;
  /** Times its "load more" control is pressed, when scrolling brings nothing. */
  clicks: number;
  /** How long a settled page may go on growing (scrolled, pressed), from when it first settled. */
  growMs: number;
  /** It stops growing once it holds this many links. */
  growLinks: number;
  /**
   * What of the tab's responses besides the page is kept for the archive: up to `bytes` in all (0: nothing), and no
   * URL `skip` names (one the crawl kept already).
   */
  capture: { bytes: number; skip(url: string): boolean };
  /**
   * Why the page may not make this request (it is stopped before it leaves the browser and listed in `blocked`),
   * or null to let it go. Asked for every request the page makes, the first navigation excepted.
   */
  guard(request: PageRequest): string | null | Promise<string | null>;
}

export interface BlockedRequest {
  url: string;
  method: string;
  reason: string;
}

export type RenderResult =
  | {
      kind: 'rendered';
      /** The serialized DOM: open shadow roots and same-origin frames inlined, link targets absolute. */
      html: string;
      /** The page's URL when it was read (a script may have changed it with history.pushState). */
      url: string;
      /** False when the page was still busy at the timeout: `html` is what it showed then. */
      settled: boolean;
      /** Times scrolling to its end made the page grow. */
      scrolled: number;
      /** Times pressing its "load more" control made the page grow (absent: none). */
      pressed?: number;
      /** What stopped it growing, when it grew at all. */
      stopped?: GrowthStop;
      /** Where the tab's time went (`durationMs` in all); absent where it was not measured. */
      phases?: RenderPhases;
      /** What the tab loaded besides the page, within the capture's bytes (absent where the browser cannot keep it). */
      resources?: PageResource[];
      blocked: BlockedRequest[];
      durationMs: number;
    }
  | { kind: 'failed'; reason: string; blocked: BlockedRequest[]; durationMs: number };

export interface RenderPort {
  render(request: RenderRequest): Promise<RenderResult>;
}
