// The benchmark's report: harvest-against-fetches plots (Vega-Lite, rendered to SVG in Node) and a markdown summary.
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export interface HarvestSeries {
  /** "best-first (Focus)", "Crawlee CheerioCrawler", ... */
  name: string;
  points: { fetched: number; harvest: number | null; recall: number | null }[];
}

/** Harvest rate and recall against pages fetched, one line per crawler, as an SVG document. */
export async function harvestChart(title: string, series: HarvestSeries[]): Promise<string> {
  const values = series.flatMap((s) =>
    s.points.flatMap((p) => [
      { crawler: s.name, fetched: p.fetched, measure: 'harvest rate', value: p.harvest },
      { crawler: s.name, fetched: p.fetched, measure: 'recall', value: p.recall },
    ]),
  ).filter((v) => v.value !== null);
  const spec: TopLevelSpec = {
    title,
    data: { values },
    width: 320,
    height: 220,
    columns: 2,
    facet: { field: 'measure', type: 'nominal', title: null },
    spec: {
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'fetched', type: 'quantitative', title: 'pages fetched', scale: { type: 'log', nice: false } },
        y: { field: 'value', type: 'quantitative', title: null, scale: { domain: [0, 1] } },
        color: { field: 'crawler', type: 'nominal', title: null },
      },
    },
    config: { legend: { orient: 'bottom' }, font: 'sans-serif' },
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  return view.toSVG();
}

type Cell = string | number | null | undefined;

export function markdownTable(header: string[], rows: Cell[][]): string {
  const fmt = (c: Cell) => (c === null || c === undefined || (typeof c === 'number' && !Number.isFinite(c)) ? '-' : String(c));
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(fmt).join(' | ')} |`),
  ].join('\n');
}
