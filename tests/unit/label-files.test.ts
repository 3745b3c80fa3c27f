import { describe, expect, it } from 'vitest';
import { labelsToCsv, labelsToJsonl, parseLabels } from '../../lib/export/labels';
import type { LabeledLink } from '../../lib/records/types';

const rows: LabeledLink[] = [
  { id: 1, topicId: 1, crawlId: null, url: 'http://a.test/1', anchor: 'Solar, "roof"', context: 'line one\nline two', label: 1, source: 'user', createdAt: Date.UTC(2026, 10, 22), pageUrl: 'http://a.test/' },
  { id: 2, topicId: 1, crawlId: 3, url: 'http://a.test/2', anchor: '=HYPERLINK("http://evil")', context: '', label: 0, source: 'auto', createdAt: Date.UTC(2026, 10, 22) },
];

describe('label files', () => {
  it('round-trips CSV and JSON Lines, commas, quotes and newlines included', () => {
    for (const [format, text] of [['csv', labelsToCsv(rows)], ['jsonl', labelsToJsonl(rows)]] as const) {
      const back = parseLabels(format, text, 0);
      expect(back.rejected).toEqual([]);
      expect(back.labels.map((l) => [l.url, l.label, l.context, l.createdAt])).toEqual(rows.map((r) => [r.url, r.label, r.context, r.createdAt]));
      expect(back.labels[0].anchor).toBe('Solar, "roof"');
      expect(back.labels[0].pageUrl).toBe('http://a.test/');
    }
  });

  it('keeps a spreadsheet from running an anchor as a formula', () => {
    const csv = labelsToCsv(rows);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv.split(/\r?\n/)[0]).toBe('url,anchor,context,label,source,createdAt,pageUrl');
  });

  it('says which lines it could not read and why', () => {
    const r = parseLabels('csv', 'link,label\nhttp://a.test/,on\n', 0);
    expect(r.labels).toEqual([]);
    expect(r.rejected[0].error).toMatch(/"url" and "label"/);
    const j = parseLabels('jsonl', '{"url":"ftp://a.test/","label":1,"anchor":"x"}\n{"url":"http://a.test/","label":"yes","anchor":""}\n[]\n', 0);
    expect(j.rejected).toEqual([
      { line: 1, error: 'url is not an http(s) URL' },
      { line: 2, error: 'anchor and context are both empty: there is nothing to learn from' },
      { line: 3, error: 'not an object' },
    ]);
  });
});
