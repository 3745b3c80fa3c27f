// The captures an archive holds: one per request the crawl made. A page the crawl judged from training's stored copy
// (its row's `copyOf`) made no request; its content is the training read's capture, as received then and dated so.
import type { PageBody } from '../records/types';
import { hasBody, type ExportPage } from './selection';

export interface Capture extends ExportPage {
  body: PageBody;
  /**
   * The page was judged from the stored copy of a training read written earlier in this export: it adds no record
   * of its own. A copy whose training read is not in the export (left out by the selection) is written in its place,
   * so that the file still holds the one capture the page was judged from.
   */
  copy: boolean;
}

/** The pages with bodies, in order, each told whether it stands on a capture already written. */
export async function* captures(pages: AsyncIterable<ExportPage>): AsyncGenerator<Capture> {
  // The training reads written (only they are copied from): they come before the pages judged from them, in seq
  // order. A crawl's other pages are not remembered, so the set stays as small as its training.
  const written = new Set<number>();
  for await (const x of pages) {
    if (!hasBody(x)) continue;
    const copy = x.page.copyOf !== undefined && written.has(x.page.copyOf);
    if (!copy && x.page.phase === 'train') written.add(x.page.seq);
    yield { ...x, copy };
  }
}
