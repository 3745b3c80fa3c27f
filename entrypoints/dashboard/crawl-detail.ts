// The selected crawl: its header, updated in place from its crawl row, and its parts: the counter tiles
// (crawl-counters.ts), its settings (crawl-settings.ts, with its topic), the harvest chart and the share of the topic
// found (recall-chart.ts), the links it fetches next (next-up-panel.ts), the links the safety guard kept it from
// requesting (kept-panel.ts) and its sites, live.
import type { CrawlerDB } from '@/lib/store/db';
import type { CrawlRecord } from '@/lib/records/rows.ts';
import type { Topic } from '@/lib/records/types.ts';
import { byId, fill } from '@/lib/platform/dom';
import { formatDateTime } from '@/lib/ui/format';
import { allTopics } from '@/lib/ui/label-queries';
import { watch } from '@/lib/ui/queries';
import { CrawlCounters, isTemplate } from './crawl-counters';
import { crawlSettings } from './crawl-settings';
import { HarvestChart } from './harvest-chart';
import { KeptPanel } from './kept-panel';
import { NextUpPanel } from './next-up-panel';
import { RecallChart } from './recall-chart';
import { SitesPanel } from './sites-panel';
import './learning.css';

export class CrawlDetail {
  private readonly counters: CrawlCounters;
  private readonly chart: HarvestChart;
  private readonly recall: RecallChart;
  private readonly nextUp: NextUpPanel;
  private readonly kept: KeptPanel;
  private readonly sites: SitesPanel;
  private topics = new Map<number, Topic>();
  private crawl: CrawlRecord | undefined;

  /** `db`: the page's database connection. */
  constructor(db: CrawlerDB) {
    this.counters = new CrawlCounters(db, byId('counters'));
    this.chart = new HarvestChart(db);
    this.recall = new RecallChart(db);
    this.nextUp = new NextUpPanel(db);
    this.kept = new KeptPanel(db);
    this.sites = new SitesPanel(db);
    byId('crawl-detail').append(this.chart.root, this.recall.root, this.nextUp.root, this.kept.root, this.sites.root);
    watch(
      () => allTopics(db),
      (rows) => {
        this.topics = new Map(rows.map((t) => [t.id!, t]));
        if (this.crawl) this.renderSettings(this.crawl);
      },
      () => {}, // the topic row then shows the id alone
    );
  }

  /** Shows the crawl, or the "select a crawl" placeholder when there is none. */
  render(crawl: CrawlRecord | undefined): void {
    this.crawl = crawl;
    byId('no-selection').hidden = !!crawl;
    byId('crawl-detail').hidden = !crawl;
    byId('pages-panel').hidden = !crawl;
    // A template crawl's measure is its records (the tiles and the Records view): its keyword judge calls every page relevant.
    this.chart.root.hidden = !!crawl && isTemplate(crawl);
    this.chart.show(crawl && !isTemplate(crawl) ? crawl : undefined);
    this.recall.show(crawl);
    this.nextUp.show(crawl?.id);
    this.kept.show(crawl?.id);
    this.counters.show(crawl);
    this.sites.show(crawl);
    if (!crawl) return;
    byId('detail-name').textContent = crawl.name;
    const state = byId('detail-state');
    state.textContent = crawl.state;
    state.className = `badge ${crawl.state}`;
    const message = byId('detail-message');
    message.hidden = !crawl.message;
    message.textContent = crawl.message ?? '';
    // A lost session is the one message the user must act on before anything else.
    message.classList.toggle('alert', !!crawl.sessionLost);
    message.setAttribute('role', crawl.sessionLost ? 'alert' : 'status');
    const ended = crawl.finishedAt ? ` · ended ${formatDateTime(crawl.finishedAt)}` : '';
    byId('detail-sub').textContent = `#${crawl.id} · started ${formatDateTime(crawl.createdAt)}${ended}`;
    this.renderSettings(crawl);
  }

  private renderSettings(crawl: CrawlRecord): void {
    fill(byId('detail-config'), ...crawlSettings(crawl, this.topics.get(crawl.topicId)));
  }
}
