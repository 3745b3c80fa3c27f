// JSON Lines export of a crawl's pages: one object per fetch attempt, in fetch order. The command-line runner
// writes the metadata lines as the crawl goes; an export adds the user's page label, the extracted text and,
// when asked, the HTML.
import { bodyHtml } from '../records/page-body';
import { parseHtml } from '../parse/html';
import type { LabelValue, PageRecord } from '../records/types';
import { batched } from './bytes';
import type { ExportPage } from './selection';

/** What an export adds to a page's metadata line. */
export interface PageContent {
  /** The page's on/off-topic label; null when it has none. */
  label: LabelValue | null;
  /** The visible text the page judge read, or null when the page has no stored body. */
  text: string | null;
  /** The decoded HTML, when the export includes it. */
  html?: string | null;
}

/** The fields of one `pages.jsonl` line, in a stable order. */
export function pageLine(p: PageRecord, content?: PageContent): string {
  const line: Record<string, unknown> = {
    seq: p.seq,
    url: p.url,
    finalUrl: p.finalUrl,
    status: p.status,
    phase: p.phase,
    depth: p.depth,
    parentUrl: p.parentUrl,
    score: round(p.score),
    relevant: p.relevant,
    relevance: p.relevance === null ? null : round(p.relevance),
    title: p.title,
    textLength: p.textLength,
    fetchedAt: new Date(p.fetchedAt).toISOString(),
  };
  // The frontier priority it was taken with (seeds of best-first take the largest number there is) and, for a
  // strategy that classes URLs, its class (design D.1).
  if (p.priority !== undefined) line.priority = p.priority === Number.MAX_VALUE ? 'seed' : round(p.priority);
  if (p.urlClass) line.urlClass = p.urlClass;
  if (p.outcome) line.outcome = p.outcome;
  if (p.truncated) line.truncated = true;
  if (p.error) line.error = p.error;
  if (p.redirects?.length) line.redirects = p.redirects;
  // Judged from the copy training read (no request of its own): the seq of that read.
  if (p.copyOf !== undefined) line.copyOf = p.copyOf;
  // Whether the page was rendered in a browser tab before it was read, and why (fetch.render).
  if (p.render) line.render = p.render;
  // The page's links the session-safety guard kept from requesting, each with the link that named it unsafe.
  if (p.kept?.length) {
    line.kept = p.kept;
    if ((p.keptLinks ?? 0) > p.kept.length) line.keptLinks = p.keptLinks;
  }
  // Content the crawl already held under another URL (not judged again), and the canonical URL the page named.
  if (p.duplicateOf !== undefined) line.duplicateOf = p.duplicateOf;
  if (p.canonical !== undefined) line.canonical = p.canonical;
  if (p.canonicalNote !== undefined) line.canonicalNote = p.canonicalNote;
  if (content) {
    line.contentType = p.contentType;
    line.bytes = p.bytes;
    line.label = content.label === null ? null : content.label === 1 ? 'on' : 'off';
    line.text = content.text;
    if (content.html !== undefined) line.html = content.html;
  }
  return JSON.stringify(line);
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** Joins page rows into a JSON Lines document (newline-terminated). */
export function pagesToJsonl(pages: Iterable<PageRecord>): string {
  let out = '';
  for (const p of pages) out += pageLine(p) + '\n';
  return out;
}

/** The text of a stored page, extracted as the crawl extracted it (the text itself is not stored): a rendered page's from its DOM. */
export function pageText(x: ExportPage): string | null {
  return x.body ? parseHtml(x.body.rendered ?? bodyHtml(x.body), x.page.finalUrl || x.page.url).text : null;
}

/** `pages.jsonl` with content, streamed: one line per page, UTF-8. */
export function writeJsonl(pages: AsyncIterable<ExportPage>, opts: { html?: boolean } = {}): AsyncIterable<Uint8Array> {
  return batched(
    (async function* () {
      for await (const x of pages) {
        const content: PageContent = { label: x.label ?? null, text: pageText(x) };
        if (opts.html) content.html = x.body ? bodyHtml(x.body) : null;
        yield pageLine(x.page, content) + '\n';
      }
    })(),
  );
}
