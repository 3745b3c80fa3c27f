// Harvest rate against pages fetched (design, metrics) for the selected crawl, live, and for the crawls it is
// compared with (by default the other crawls of its topic). Drawn with uPlot: canvas, no eval, so it runs
// under the extension pages' content security policy, and fast with thousands of points.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { CrawlerDB } from '@/lib/store/db';
import type { CrawlRecord } from '@/lib/records/rows.ts';
import { errorText, fill, h } from '@/lib/platform/dom';
import { formatCount, formatPercent } from '@/lib/ui/format';
import { allCrawls, HarvestCurve, harvestStepAfter, sampleCurves, watch, watchThrottled } from '@/lib/ui/queries';
import './learning.css';

/** At most this many x values are drawn, whatever the crawls' length. */
const MAX_POINTS = 2000;
const HEIGHT = 240;
/** Redraw at most this often while pages come in. */
const REDRAW_MS = 250;
/** The selected crawl in the brand colour, the others in colours apart from it and from each other. */
const SELECTED_COLOUR = '#1f3a8a';
const COLOURS = ['#d97706', '#1b7f4b', '#9333ea', '#0891b2', '#db2777', '#65a30d', '#b42318', '#64748b'];
const INK = '#5d6a85';
/** Tick steps of the pages axis: whole pages only. */
const PAGE_STEPS = [1, 2, 5].flatMap((m) => [1, 10, 100, 1e3, 1e4, 1e5, 1e6].map((p) => m * p)).sort((a, b) => a - b);
const GRID = '#eef1f6';
/** Page rows read at a time while the curve catches up. */
const CATCH_UP_CHUNK = 250;
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

interface Line {
  crawl: CrawlRecord;
  curve: HarvestCurve;
  unsubscribe: () => void;
}

export class HarvestChart {
  readonly root: HTMLElement;
  private readonly plotBox: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly compareBox: HTMLElement;
  private readonly error: HTMLElement;
  private crawls: CrawlRecord[] = [];
  private selected: CrawlRecord | undefined;
  /** Crawls drawn besides the selected one. */
  private compared = new Set<number>();
  private readonly lines = new Map<number, Line>();
  private plot: uPlot | undefined;
  /** Crawl ids of the plot's series, to know whether new data fits it or it must be rebuilt. */
  private plotted = '';
  private redrawTimer: ReturnType<typeof setTimeout> | undefined;
  private compareKey = '';
  /** The crawl whose default comparison is set, and the crawls known then (a new crawl of its topic is added). */
  private defaultsFor: number | undefined;
  private known = new Set<number>();

  constructor(private readonly db: CrawlerDB) {
    this.plotBox = h('div', { class: 'harvest-plot' });
    this.empty = h('p', { class: 'harvest-empty muted' }, 'No pages fetched yet.');
    this.compareBox = h('div', { class: 'compare' });
    this.error = h('p', { class: 'notice error', role: 'alert', hidden: true });
    this.root = h(
      'section',
      { class: 'learning-block harvest', 'data-testid': 'harvest-chart' },
      h(
        'h3',
        null,
        'Harvest rate ',
        h('small', { class: 'muted' }, 'relevant pages / pages fetched, after each fetch'),
      ),
      this.error,
      h('div', { class: 'harvest-canvas' }, this.plotBox, this.empty),
      this.compareBox,
    );
    // Resized on the next frame, not inside the observer: resizing the plot from it can loop.
    new ResizeObserver(() => requestAnimationFrame(() => this.resize())).observe(this.plotBox);
    watch(
      () => allCrawls(this.db),
      (rows) => {
        this.crawls = rows;
        this.applyDefaults();
        this.renderCompare();
        this.sync();
      },
      (err) => this.showError(err),
    );
  }

  /** Shows the crawl's curve; a newly selected crawl is compared with the other crawls of its topic. */
  show(crawl: CrawlRecord | undefined): void {
    const changed = crawl?.id !== this.selected?.id;
    this.selected = crawl;
    if (changed) {
      this.applyDefaults();
      this.renderCompare();
      this.sync();
    }
  }

  /** Ticks the other crawls of the selected crawl's topic: all of them when it is selected, then new ones. */
  private applyDefaults(): void {
    const sel = this.selected;
    if (!sel || !this.crawls.some((c) => c.id === sel.id)) return;
    const sameTopic = (c: CrawlRecord) => c.id !== sel.id && c.topicId === sel.topicId;
    if (this.defaultsFor !== sel.id) {
      this.defaultsFor = sel.id;
      this.compared = new Set(this.crawls.filter(sameTopic).map((c) => c.id!));
    } else {
      for (const c of this.crawls) if (!this.known.has(c.id!) && sameTopic(c)) this.compared.add(c.id!);
    }
    this.known = new Set(this.crawls.map((c) => c.id!));
  }

  /** The crawls to draw, the selected one first. */
  private shown(): CrawlRecord[] {
    const sel = this.selected;
    if (!sel) return [];
    return [sel, ...this.crawls.filter((c) => c.id !== sel.id && this.compared.has(c.id!))];
  }

  /** Subscribes to the curves of the crawls shown and drops the others. */
  private sync(): void {
    const shown = this.shown();
    const ids = new Set(shown.map((c) => c.id!));
    for (const [id, line] of this.lines) {
      if (!ids.has(id)) {
        line.unsubscribe();
        this.lines.delete(id);
      }
    }
    for (const crawl of shown) {
      const held = this.lines.get(crawl.id!);
      if (held) {
        held.crawl = crawl;
        continue;
      }
      const curve = new HarvestCurve();
      const line: Line = { crawl, curve, unsubscribe: () => {} };
      // Each read takes only the pages after the curve's last seq, and runs outside the live query: Dexie keeps
      // the rows a live query read for as long as it is subscribed, which on a finished crawl is until the page
      // closes (0.7 KB a page, 70 MB at 100,000 pages). The crawl row, written with every page, is what is watched.
      line.unsubscribe = watchThrottled(
        () => this.db.crawls.get(crawl.id!),
        // A long crawl's curve is read in small chunks, each after the page's other work: the whole of 100,000
        // rows is seconds of reading, and the Pages table's first window would otherwise wait behind it.
        () => harvestStepAfter(this.db, crawl.id!, curve.lastSeq, CATCH_UP_CHUNK, nextTask),
        (step) => {
          if (curve.extend(step)) this.scheduleRedraw();
        },
        (err) => this.showError(err),
      );
      this.lines.set(crawl.id!, line);
    }
    this.scheduleRedraw();
  }

  private scheduleRedraw(): void {
    if (this.redrawTimer !== undefined) return;
    this.redrawTimer = setTimeout(() => {
      this.redrawTimer = undefined;
      this.draw();
    }, this.plot ? REDRAW_MS : 0);
  }

  private draw(): void {
    const lines = this.shown().flatMap((c) => this.lines.get(c.id!) ?? []);
    const drawn = lines.filter((l) => l.curve.fetched > 0);
    this.root.dataset.lines = String(drawn.length);
    this.root.dataset.crawls = drawn.map((l) => l.crawl.id).join(',');
    this.root.dataset.points = String(this.selected ? (this.lines.get(this.selected.id!)?.curve.fetched ?? 0) : 0);
    this.empty.hidden = drawn.length > 0;
    this.plotBox.hidden = drawn.length === 0;
    this.renderCompare();
    if (drawn.length === 0) return this.destroyPlot();
    const data = sampleCurves(drawn.map((l) => l.curve), MAX_POINTS) as uPlot.AlignedData;
    const key = drawn.map((l) => `${l.crawl.id}:${l.crawl.name}`).join('|');
    if (this.plot && key === this.plotted) {
      this.plot.setData(data);
      return;
    }
    this.destroyPlot();
    this.plotted = key;
    this.plot = new uPlot(this.options(drawn), data, this.plotBox);
  }

  private options(lines: Line[]): uPlot.Options {
    const axis = { stroke: INK, grid: { stroke: GRID, width: 1 }, ticks: { stroke: GRID, width: 1 }, font: '11px system-ui, sans-serif', labelFont: '12px system-ui, sans-serif' };
    return {
      width: Math.max(200, this.plotBox.clientWidth),
      height: HEIGHT,
      scales: { x: { time: false }, y: { range: [0, 1] } },
      axes: [
        { ...axis, label: 'Pages fetched', labelSize: 24, incrs: PAGE_STEPS, values: (_u, ticks) => ticks.map((t) => formatCount(t)) },
        { ...axis, label: 'Harvest rate', labelSize: 24, size: 48, values: (_u, ticks) => ticks.map((t) => `${Math.round(t * 100)}%`) },
      ],
      series: [
        { label: 'Pages fetched', value: (_u, v) => (v === null ? '—' : formatCount(v)) },
        ...lines.map((l, i) => ({
          label: `${l.crawl.name} #${l.crawl.id}`,
          stroke: this.colour(l.crawl.id!, i),
          width: i === 0 ? 2.5 : 1.5,
          points: { show: false },
          value: (_u: uPlot, v: number | null) => formatPercent(v),
        })),
      ],
      legend: { live: true, markers: { width: 0, fill: (_u, i) => (i === 0 ? 'transparent' : this.colour(lines[i - 1].crawl.id!, i - 1)) } },
      cursor: { drag: { x: false, y: false } },
    };
  }

  /** The selected crawl's colour, or a compared crawl's (fixed by its place in the list of crawls). */
  private colour(crawlId: number, index: number): string {
    if (index === 0 && crawlId === this.selected?.id) return SELECTED_COLOUR;
    const others = this.crawls.filter((c) => c.id !== this.selected?.id);
    const at = others.findIndex((c) => c.id === crawlId);
    return COLOURS[(at < 0 ? index : at) % COLOURS.length];
  }

  /** The other crawls as checkboxes, those of the selected crawl's topic first. */
  private renderCompare(): void {
    const sel = this.selected;
    const others = sel ? this.crawls.filter((c) => c.id !== sel.id) : [];
    others.sort((a, b) => Number(b.topicId === sel?.topicId) - Number(a.topicId === sel?.topicId));
    const key = `${sel?.id}|${[...this.compared].join(',')}|${others.map((c) => `${c.id}:${c.name}:${c.stats.fetched}`).join(',')}`;
    if (key === this.compareKey) return;
    this.compareKey = key;
    if (others.length === 0) {
      fill(this.compareBox, h('span', { class: 'muted small' }, 'Other crawls will show here to compare with.'));
      return;
    }
    fill(
      this.compareBox,
      h('span', { class: 'compare-title' }, 'Compare with'),
      ...others.map((c) => {
        const box = h('input', { type: 'checkbox', 'data-testid': 'compare-crawl', 'data-crawl': c.id!, checked: this.compared.has(c.id!) });
        box.addEventListener('change', () => {
          if (box.checked) this.compared.add(c.id!);
          else this.compared.delete(c.id!);
          this.renderCompare();
          this.sync();
        });
        const same = c.topicId === sel?.topicId;
        return h(
          'label',
          { class: 'compare-chip', title: `${same ? 'Same topic' : 'Another topic'} · ${formatCount(c.stats.fetched)} pages fetched, harvest ${formatPercent(c.stats.fetched ? c.stats.relevant / c.stats.fetched : null)}` },
          box,
          h('span', { class: 'swatch', style: `background:${this.colour(c.id!, 1)}` }),
          `${c.name} #${c.id}`,
          same ? null : h('small', { class: 'muted' }, ' other topic'),
        );
      }),
    );
  }

  private resize(): void {
    const width = this.plotBox.clientWidth;
    if (this.plot && width > 0 && width !== this.plot.width) this.plot.setSize({ width, height: HEIGHT });
  }

  private destroyPlot(): void {
    this.plot?.destroy();
    this.plot = undefined;
    this.plotted = '';
  }

  private showError(err: unknown): void {
    this.error.hidden = false;
    this.error.textContent = `Could not read the harvest curve: ${errorText(err)}`;
  }
}
