// The page pipeline's rendering step (`fetch.render`): after the gate answered with a page, decide whether to load it
// in a browser tab too (render-policy.ts), wait for one of the crawl's tabs, and read the rendered DOM with the
// same parser as a fetched page. A page that fails to render is read from its HTML, with the reason on its row.
import type { FetchOutcome } from '../net/fetcher';
import type { BlockedRequest, RenderRequest, RenderResult } from '../net/render';
import { parseHtml } from '../parse/html';
import { scriptShell } from '../parse/script-shell';
import type { RenderMode } from '../records/config';
import { decideRender, renderChange, type SiteRenders } from '../policy/render-policy';
import type { PageResource, ParsedPage, RenderNote } from '../records/types';
import { hostOf } from '../records/url';

/** The page counts as settled when neither its network nor its DOM changed for this long. */
export const QUIET_MS = 500;

/** At most `size` tabs at once; the others wait their turn, first come first served. */
export class RenderSlots {
  private busy = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async take(): Promise<() => void> {
    if (this.busy >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.waiting.shift();
      if (next) next(); // the slot passes on: busy stays the same
      else this.busy--;
    };
  }
}

/** What the rendering step needs of the run. */
export interface RenderRun {
  /** The request gate's `render`; null when this browser cannot render (Node, Firefox). */
  render: ((req: Omit<RenderRequest, 'guard'>) => Promise<RenderResult | null>) | null;
  mode: RenderMode;
  timeoutMs: number;
  identify: boolean;
  scrolls: number;
  clicks: number;
  /** Bytes of a rendered page's other responses kept for the archive (fetch.renderCaptureBytes). */
  captureBytes: number;
  /**
   * URLs whose response a rendered page of this run kept already: a script or a style every page loads is kept
   * once, with the first page that loaded it.
   */
  captured: Set<string>;
  /** What rendering did on each host so far (`auto` learns a site from its first rendered pages). */
  sites: Map<string, SiteRenders>;
  slots: RenderSlots;
}

export interface RenderStep {
  /** The page as the crawl reads it: rendered, or as fetched. */
  parsed: ParsedPage;
  /** Absent when the page was not rendered and its HTML gave no reason to: rendering is off, or it read as a whole page. */
  note?: RenderNote;
  /** The serialized DOM, when rendered. */
  html?: string;
  /** What the tab loaded besides the page, kept for the archive. */
  resources?: PageResource[];
  blocked: BlockedRequest[];
}

/** Renders the page when the config and its HTML say so; `fetched` is its HTML as parsed. */
export async function renderStep(run: RenderRun, out: FetchOutcome, fetched: ParsedPage): Promise<RenderStep> {
  const asFetched = (note?: RenderNote, blocked: BlockedRequest[] = []): RenderStep => ({ parsed: fetched, ...(note ? { note } : {}), blocked });
  if (run.mode === 'never') return asFetched();
  const host = hostOf(out.finalUrl);
  const shell = run.mode === 'auto' ? scriptShell(out.html ?? '', fetched) : null;
  const decision = decideRender(run.mode, shell, run.sites.get(host));
  // A page whose HTML reads as a whole page says nothing: rows of a static site stay as they were without rendering.
  if (!decision.render) return asFetched(shell ? { rendered: false, why: `${shell}, but ${decision.why}` } : undefined);
  if (!run.render) return asFetched({ rendered: false, why: decision.why, error: 'this browser cannot render pages' });
  const release = await run.slots.take();
  let result: RenderResult | null;
  try {
    result = await run.render({
      url: out.finalUrl, timeoutMs: run.timeoutMs, quietMs: QUIET_MS, identify: run.identify, scrolls: run.scrolls, clicks: run.clicks,
      capture: { bytes: run.captureBytes, skip: (url) => run.captured.has(url) },
    });
  } catch (err) {
    result = { kind: 'failed', reason: err instanceof Error ? err.message : String(err), blocked: [], durationMs: 0 };
  } finally {
    release();
  }
  if (result === null) return asFetched({ rendered: false, why: decision.why, error: 'the crawl stopped before the page was rendered' });
  const blocked = result.blocked.length ? { blocked: result.blocked.length } : {};
  if (result.kind === 'failed') {
    return asFetched({ rendered: false, why: decision.why, error: result.reason, ...blocked, ms: result.durationMs }, result.blocked);
  }
  let parsed: ParsedPage;
  try {
    parsed = parseHtml(result.html, result.url);
  } catch (err) {
    const error = `the rendered page could not be parsed: ${err instanceof Error ? err.message : String(err)}`;
    return asFetched({ rendered: false, why: decision.why, error, ...blocked, ms: result.durationMs }, result.blocked);
  }
  const changed = renderChange(fetched, parsed);
  const site = run.sites.get(host) ?? { rendered: 0, changed: 0 };
  site.rendered++;
  if (changed) {
    site.changed++;
    site.firstChange ??= `${changed} on ${out.finalUrl}`;
  }
  run.sites.set(host, site);
  const note: RenderNote = {
    rendered: true, why: decision.why, settled: result.settled, ...(result.scrolled ? { scrolled: result.scrolled } : {}),
    ...(result.pressed ? { pressed: result.pressed } : {}),
    ...(changed ? { changed } : {}), ...blocked, ms: result.durationMs,
  };
  const resources = result.resources?.filter((r) => !run.captured.has(r.url)) ?? [];
  for (const r of resources) run.captured.add(r.url);
  return { parsed, note, html: result.html, blocked: result.blocked, ...(resources.length ? { resources } : {}) };
}
