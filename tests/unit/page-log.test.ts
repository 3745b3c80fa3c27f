// The page log's reads that walk a whole crawl: they must not hold the pages store while the crawl commits pages.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CrawlerDB } from '../../lib/store/db';
import { PageLog } from '../../lib/store/page-log';
import type { PageRecord } from '../../lib/records/types';

function row(seq: number, phase: PageRecord['phase'], outcome: PageRecord['outcome'] = 'done'): PageRecord {
  const url = `https://example.org/${phase}/${seq}`;
  return {
    crawlId: 1, seq, url, finalUrl: `${url}/`, status: outcome === 'done' ? 200 : 0, phase, depth: 0, parentUrl: null, score: 0, relevant: null, relevance: null,
    title: '', textLength: 0, contentType: 'text/html', bytes: 100, truncated: false, linkCount: 0, fetchedAt: seq, durationMs: 1, outcome,
  };
}

describe('page log: training reads', () => {
  it('finds training reads anywhere in a large crawl, and a page committed meanwhile is not kept waiting until the scan ends', async () => {
    const db = new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    // Training read first, then a crawl of 9,000 pages, and training resumed near the end (one read failed).
    const rows = Array.from({ length: 9_000 }, (_, i) => row(i + 1, i < 3 || i === 8_500 || i === 8_501 ? 'train' : 'crawl', i === 8_501 ? 'failed' : 'done'));
    await db.pages.bulkPut(rows);
    const log = new PageLog(db);

    const order: string[] = [];
    const reading = log.trainedUrls(1).then((urls) => (order.push('scan'), urls));
    const committing = db.pages.put(row(9_001, 'crawl')).then(() => order.push('commit'));
    const [urls] = await Promise.all([reading, committing]);
    expect(order).toEqual(['commit', 'scan']);

    const training = rows.filter((p) => p.phase === 'train');
    expect([...urls].sort()).toEqual(training.map((p) => p.url).sort());
    const copies = await log.trainingCopies(1);
    expect(copies).toEqual(training.filter((p) => p.outcome === 'done').map((p) => ({ url: p.url, finalUrl: p.finalUrl, seq: p.seq })));
    db.close();
  });
});
