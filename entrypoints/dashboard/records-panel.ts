// The Records view of a template crawl (design E.5): one row per final page with its fields, what this cycle
// did to it (new, changed, unchanged), when it was first seen and last changed; the cycle's counts and when
// the template is due again; export as CSV or JSON Lines; "Recrawl now" (design E.6). Live: it re-reads when
// the worker writes a record.
import { downloadFile } from '@/lib/platform/actions';
import { byId, errorText, fill, h } from '@/lib/platform/dom';
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlerDB } from '@/lib/store/db';
import type { CrawlRecord, FieldRecord, RecordChange } from '@/lib/records/rows.ts';
import { fieldColumns, recordsCsv, recordsJsonl } from '@/lib/export/records';
import { formatCount, formatDateTime } from '@/lib/ui/format';
import { watchThrottled } from '@/lib/ui/queries';

const SHOWN = 500;

interface View {
  records: FieldRecord[];
  changes: Map<string, RecordChange['change']>;
}

async function readView(db: CrawlerDB, name: string, crawlId: number): Promise<View> {
  const records = await db.records.where('crawlName').equals(name).toArray();
  const changes = await db.recordChanges.where('[crawlId+url]').between([crawlId, ''], [crawlId, '\uffff']).toArray();
  return { records: records.sort((a, b) => a.site.localeCompare(b.site) || a.url.localeCompare(b.url)), changes: new Map(changes.map((c) => [c.url, c.change])) };
}

/** One row of each table the view reads, both started at once, to watch them (see watchThrottled). */
function recordsChanges(db: CrawlerDB, name: string, crawlId: number): Promise<unknown> {
  return Promise.all([
    db.records.where('crawlName').equals(name).limit(1).toArray(),
    db.recordChanges.where('[crawlId+url]').between([crawlId, ''], [crawlId, '\uffff']).limit(1).toArray(),
  ]);
}

export class RecordsPanel {
  private readonly root = byId('records-panel');
  private readonly head = byId('records-head-row');
  private readonly body = byId('records-body');
  private readonly summary = byId('records-summary');
  private readonly error = byId('records-error');
  private crawl: CrawlRecord | undefined;
  private view: View = { records: [], changes: new Map() };
  private watching: number | undefined;
  private unwatch: (() => void) | undefined;

  constructor(private readonly db: CrawlerDB) {
    byId('records-export-csv').addEventListener('click', () => this.download('csv'));
    byId('records-export-jsonl').addEventListener('click', () => this.download('jsonl'));
    byId('records-recrawl').addEventListener('click', () => {
      const c = this.crawl;
      if (!c) return;
      this.say(null);
      sendMessage('recrawl', { name: c.name }).catch((err: unknown) => this.say(errorText(err)));
    });
  }

  show(crawl: CrawlRecord | undefined): void {
    this.crawl = crawl;
    this.root.hidden = !crawl?.config.template;
    const id = crawl?.config.template ? crawl.id : undefined;
    this.renderSummary();
    if (id === this.watching) return;
    this.watching = id;
    this.unwatch?.();
    this.unwatch = undefined;
    if (id === undefined || !crawl) return;
    this.unwatch = watchThrottled(() => recordsChanges(this.db, crawl.name, id), () => readView(this.db, crawl.name, id), (v) => {
      this.view = v;
      this.render();
    }, (err) => this.say(`Could not read the records: ${errorText(err)}`));
  }

  private say(message: string | null): void {
    this.error.hidden = !message;
    this.error.textContent = message ?? '';
  }

  private renderSummary(): void {
    const c = this.crawl;
    const run = c?.templateRun;
    if (!c || !run) return;
    const parts = [`${formatCount(this.view.records.length)} records`, `cycle ${run.cycle}`];
    if (run.seeded) parts.push(`${formatCount(run.results.length)} search results, ${formatCount(run.results.length - run.skipped.length)} crawled`);
    if (run.changes) parts.push(Object.entries(run.changes).map(([k, n]) => `${n} ${k}`).join(', '));
    if (run.nextAt) parts.push(`due again ${formatDateTime(run.nextAt)}`);
    this.summary.textContent = parts.join(' · ');
    (byId('records-recrawl') as HTMLButtonElement).disabled = c.state === 'running' || c.state === 'training';
  }

  private render(): void {
    this.renderSummary();
    const fields = fieldColumns(this.view.records, Object.keys(this.crawl?.config.template?.fields ?? {}));
    fill(this.head, ...['Site', ...fields, 'This cycle', 'First seen', 'Last changed'].map((t) => h('th', null, t)));
    if (this.view.records.length === 0) {
      fill(this.body, h('tr', null, h('td', { colspan: String(fields.length + 4), class: 'empty muted' }, 'No record yet: records appear as final pages are fetched.')));
      return;
    }
    fill(this.body, ...this.view.records.slice(0, SHOWN).map((r) => {
      const change = this.view.changes.get(r.url) ?? 'not checked';
      return h('tr', { 'data-testid': 'record-row' },
        h('td', null, h('a', { href: r.url, target: '_blank', rel: 'noreferrer', title: r.url }, r.site), h('div', { class: 'muted small' }, new URL(r.url).pathname + new URL(r.url).search)),
        ...fields.map((f) => h('td', { 'data-field': f }, r.fields[f] ?? '')),
        h('td', null, h('span', { class: `badge change-${change.replace(' ', '-')}` }, change)),
        h('td', { class: 'small when' }, formatDateTime(r.firstSeen)),
        h('td', { class: 'small when' }, formatDateTime(r.lastChanged)));
    }));
  }

  private download(format: 'csv' | 'jsonl'): void {
    const c = this.crawl;
    if (!c) return;
    const stem = c.name.replace(/[^\p{L}\d]+/gu, '-').replace(/^-|-$/g, '') || 'records';
    const records = this.view.records;
    if (format === 'csv') downloadFile([recordsCsv(records, Object.keys(c.config.template?.fields ?? {}))], `${stem}-records.csv`, 'text/csv');
    else downloadFile([recordsJsonl(records)], `${stem}-records.jsonl`);
  }
}
