// JSON Lines export of a crawl's pages: one object per fetch attempt, in fetch order.
import type { PageRecord } from '../types';

/** The fields of one `pages.jsonl` line, in a stable order. */
export function pageLine(p: PageRecord): string {
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
  if (p.outcome) line.outcome = p.outcome;
  if (p.truncated) line.truncated = true;
  if (p.error) line.error = p.error;
  if (p.redirects?.length) line.redirects = p.redirects;
  return JSON.stringify(line);
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** Joins page rows into a JSON Lines document (newline-terminated). */
export function pagesToJsonl(pages: Iterable<PageRecord>): string {
  let out = '';
  for (const p of pages) out += pageLine(p) + '\n';
  return out;
}
