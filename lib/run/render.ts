// The page pipeline's rendering step (`fetch.render`): after the gate answered with a page, decide whether to load it
// in a browser tab too (render-policy.ts), wait for one of the crawl's tabs, decide again with what the pages rendered
// meanwhile showed, and read the rendered DOM with the same parser as a fetched page; what it changed is learned for
// the page's kind. A page that fails to render is read from its HTML, with the reason on its row.
import type { FetchOutcome } from '../net/fetcher';
import type { BlockedRequest, RenderRequest, RenderResult } from '../net/render';
import { parseHtml } from '../parse/html';
import { pageKind } from '../parse/page-kind';
import { runsScripts, scriptedPart, scriptShell } from '../parse/script-shell';
import type { RenderMode } from '../records/config';
import { decideRender, renderChange, type PageSigns, type RenderBook, type RenderDecision } from '../policy/render-policy';
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
  /** The request gate's `render`; null where there is no browser to render in (Node). */
  render: ((req: Omit<RenderRequest, 'guard'>) => Promise<RenderResult | null>) | null;
  mode: RenderMode;
  timeoutMs: number;
  identify: boolean;
  scrolls: number;
  clicks: number;
  growMs: number;
  growLinks: number;
  /** Bytes of a rendered page's other responses kept for the archive (fetch.renderCaptureBytes). */
  captureBytes: number;
  /**
   * URLs whose response a rendered page of this run kept already: a script or a style every page loads is kept
   * once, with the first page that loaded it.
   */
  captured: Set<string>;
  /** What rendering showed so far, kind by kind on each host (`auto` learns from it). */
  book: RenderBook;
  slots: RenderSlots;
}

export interface RenderStep {
  /** The page as the crawl reads it: rendered, or as fetched. */
  parsed: ParsedPage;
  /**
   * Absent when the page was not rendered and nothing learned was the reason: rendering is off, its HTML runs no
   * script, or it reads as a whole page on a site where rendering has changed nothing yet.
   */
  note?: RenderNote;
  /** The serialized DOM, when rendered. */
  html?: string;
  /** What the tab loaded besides the page, kept for the archive. */
  resources?: PageResource[];
  blocked: BlockedRequest[];
}

/**
 * What `auto` reads in a page's HTML: a shell, a part scripts build, the page's kind. Null for a page whose HTML runs
 * no script and shows no frame of its site: a tab would show what the HTML says, and its kind is not worked out.
 */
export function pageSigns(html: string, fetched: ParsedPage, url: string): PageSigns | null {
  const scripts = runsScripts(html);
  const shell = scripts ? scriptShell(html, fetched) : null;
  const part = shell ? null : scriptedPart(html, url);
  if (!scripts && !part) return null;
  return { scripts, shell, part, kind: pageKind(url, html, shell !== null, part) };
}

/** Renders the page when the config, its HTML and its kind's record say so; `fetched` is its HTML as parsed. */
export async function renderStep(run: RenderRun, out: FetchOutcome, fetched: ParsedPage): Promise<RenderStep> {
  const asFetched = (note?: RenderNote, blocked: BlockedRequest[] = []): RenderStep => ({ parsed: fetched, ...(note ? { note } : {}), blocked });
  if (run.mode === 'never') return asFetched();
  const host = hostOf(out.finalUrl);
  const page = run.mode === 'auto' ? pageSigns(out.html ?? '', fetched, out.finalUrl) : null;
  // A page whose HTML runs no script says nothing: rows of a static site stay as they were without rendering.
  if (run.mode === 'auto' && !page) return asFetched();
  const kind = page ? { kind: page.kind.label } : {};
  const decide = (): RenderDecision => decideRender(run.mode, page, run.book, host);
  /** Not rendered: the row says why when the decision came from what pages of its kind showed. */
  const left = (d: RenderDecision): RenderStep => {
    if (page) run.book.decided(host, page.kind, d);
    return asFetched(d.learned ? { rendered: false, why: d.why, ...kind } : undefined);
  };
  const first = decide();
  if (!first.render) return left(first);
  if (!run.render) {
    // Without a browser nothing is learned: only a page that reads as a shell, or `always`, says it could not be rendered.
    const says = run.mode === 'always' || page?.shell;
    return asFetched(says ? { rendered: false, why: first.why, ...kind, error: 'this browser cannot render pages' } : undefined);
  }
  const release = await run.slots.take();
  // Pages of its kind rendered while it waited for a tab: what they showed counts for it too.
  const decision = decide();
  if (!decision.render) {
    release();
    return left(decision);
  }
  if (page) run.book.decided(host, page.kind, decision);
  return rendered(run, out, fetched, { decision, page, host }, release);
}

/** Renders a page that was given a tab (`release` gives it back), reads it, and learns what it showed for its kind. */
async function rendered(
  run: RenderRun, out: FetchOutcome, fetched: ParsedPage, { decision, page, host }: { decision: RenderDecision; page: PageSigns | null; host: string },
  release: () => void,
): Promise<RenderStep> {
  const kind = page ? { kind: page.kind.label } : {};
  const asFetched = (note: RenderNote, blocked: BlockedRequest[] = []): RenderStep => ({ parsed: fetched, note, blocked });
  let result: RenderResult | null;
  try {
    result = await run.render!({
      url: out.finalUrl, timeoutMs: run.timeoutMs, quietMs: QUIET_MS, identify: run.identify, scrolls: run.scrolls, clicks: run.clicks,
      growMs: run.growMs, growLinks: run.growLinks, capture: { bytes: run.captureBytes, skip: (url) => run.captured.has(url) },
    });
  } catch (err) {
    result = { kind: 'failed', reason: err instanceof Error ? err.message : String(err), blocked: [], durationMs: 0 };
  } finally {
    release();
  }
  if (result === null) return asFetched({ rendered: false, why: decision.why, ...kind, error: 'the crawl stopped before the page was rendered' });
  const blocked = result.blocked.length ? { blocked: result.blocked.length } : {};
  if (result.kind === 'failed') {
    return asFetched({ rendered: false, why: decision.why, ...kind, error: result.reason, ...blocked, ms: result.durationMs }, result.blocked);
  }
  let parsed: ParsedPage;
  try {
    parsed = parseHtml(result.html, result.url, { mainText: true });
  } catch (err) {
    const error = `the rendered page could not be parsed: ${err instanceof Error ? err.message : String(err)}`;
    return asFetched({ rendered: false, why: decision.why, ...kind, error, ...blocked, ms: result.durationMs }, result.blocked);
  }
  const changed = renderChange(fetched, parsed);
  if (page) run.book.rendered(host, page.kind, out.finalUrl, changed);
  const note: RenderNote = {
    rendered: true, why: decision.why, ...kind, settled: result.settled, ...(result.scrolled ? { scrolled: result.scrolled } : {}),
    ...(result.pressed ? { pressed: result.pressed } : {}), ...(result.stopped ? { stopped: result.stopped } : {}),
    ...(changed ? { changed } : {}), ...blocked, ms: result.durationMs, ...(result.phases ? { phases: result.phases } : {}),
  };
  const resources = result.resources?.filter((r) => !run.captured.has(r.url)) ?? [];
  for (const r of resources) run.captured.add(r.url);
  return { parsed, note, html: result.html, blocked: result.blocked, ...(resources.length ? { resources } : {}) };
}
