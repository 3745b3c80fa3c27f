// Under the harvest rate: how much of the topic the selected crawl holds (docs/recall.md), as a sentence ("about 72%
// of the topic found (65-80%)", or why there is no estimate) and its estimates against pages fetched, the interval
// shaded. The estimates are the crawl's recall history, one every hundred pages, read live from their own table.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import Dexie from 'dexie';
import type { CrawlerDB } from '@/lib/store/db';
import type { CrawlRecord, RecallRow } from '@/lib/records/rows.ts';
import { errorText, h } from '@/lib/platform/dom';
import { formatCount, recallSentence } from '@/lib/ui/format';
import { watch } from '@/lib/ui/queries';

const HEIGHT = 160;
const ESTIMATE_COLOUR = '#1b7f4b';
const BAND_COLOUR = 'rgba(27, 127, 75, 0.15)';
const INK = '#5d6a85';
const GRID = '#eef1f6';

const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${Math.round(v * 100)}%`);

export class RecallChart {
  readonly root: HTMLElement;
  private readonly sentence = h('p', { class: 'recall-sentence', 'data-testid': 'detail-recall' });
  private readonly plotBox = h('div', { class: 'harvest-plot' });
  private readonly error = h('p', { class: 'notice error', role: 'alert', hidden: true });
  private plot: uPlot | undefined;
  private crawlId: number | undefined;
  private stop: (() => void) | undefined;

  constructor(private readonly db: CrawlerDB) {
    this.root = h('section', { class: 'learning-block recall', 'data-testid': 'recall-chart', hidden: true },
      h('h3', null, 'Topic found ', h('small', { class: 'muted' }, 'estimated share of the topic\'s pages the crawl holds, with its interval')),
      this.sentence, this.error, h('div', { class: 'harvest-canvas' }, this.plotBox));
    new ResizeObserver(() => requestAnimationFrame(() => {
      const width = this.plotBox.clientWidth;
      if (this.plot && width > 0 && width !== this.plot.width) this.plot.setSize({ width, height: HEIGHT });
    })).observe(this.plotBox);
  }

  /** Shows the crawl's estimate; a crawl made before estimates were kept (no `recall` on its row) shows nothing. */
  show(crawl: CrawlRecord | undefined): void {
    const sentence = crawl ? recallSentence(crawl.recall) : null;
    this.root.hidden = sentence === null;
    this.sentence.textContent = sentence ?? '';
    this.root.dataset.state = !crawl?.recall ? 'none' : 'note' in crawl.recall ? 'note' : 'estimate';
    if (crawl?.id === this.crawlId) return;
    this.stop?.();
    this.destroyPlot();
    this.crawlId = crawl?.id;
    if (crawl?.id === undefined) return;
    const id = crawl.id;
    this.stop = watch(
      () => this.db.recallHistory.where('[crawlId+fetched]').between([id, Dexie.minKey], [id, Dexie.maxKey]).toArray(),
      (rows) => this.draw(rows),
      (err) => {
        this.error.hidden = false;
        this.error.textContent = `Could not read the recall estimates: ${errorText(err)}`;
      },
    );
  }

  private draw(rows: RecallRow[]): void {
    this.root.dataset.points = String(rows.length);
    this.plotBox.hidden = rows.length === 0;
    if (rows.length === 0) return this.destroyPlot();
    const data: uPlot.AlignedData = [rows.map((r) => r.fetched), rows.map((r) => r.estimate), rows.map((r) => r.low), rows.map((r) => r.high)];
    if (this.plot) return this.plot.setData(data);
    const axis = { stroke: INK, grid: { stroke: GRID, width: 1 }, ticks: { stroke: GRID, width: 1 }, font: '11px system-ui, sans-serif', labelFont: '12px system-ui, sans-serif' };
    const bound = (label: string) => ({ label, stroke: BAND_COLOUR, width: 1, points: { show: false }, value: (_u: uPlot, v: number | null) => pct(v) });
    this.plot = new uPlot({
      width: Math.max(200, this.plotBox.clientWidth),
      height: HEIGHT,
      scales: { x: { time: false }, y: { range: [0, 1] } },
      axes: [
        { ...axis, label: 'Pages fetched', labelSize: 24, values: (_u, ticks) => ticks.map((t) => formatCount(t)) },
        { ...axis, label: 'Topic found', labelSize: 24, size: 48, values: (_u, ticks) => ticks.map((t) => `${Math.round(t * 100)}%`) },
      ],
      series: [
        { label: 'Pages fetched', value: (_u, v) => (v === null ? '—' : formatCount(v)) },
        { label: 'Estimate', stroke: ESTIMATE_COLOUR, width: 2, points: { show: rows.length < 30 }, value: (_u, v) => pct(v) },
        bound('Low'),
        bound('High'),
      ],
      bands: [{ series: [3, 2], fill: BAND_COLOUR }],
      cursor: { drag: { x: false, y: false } },
    }, data, this.plotBox);
  }

  private destroyPlot(): void {
    this.plot?.destroy();
    this.plot = undefined;
  }
}
