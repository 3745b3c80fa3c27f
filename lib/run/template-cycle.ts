// One cycle of a template crawl, around the crawl loop: before it, the search and the sample of seeds
// (design E.2, E.3), queued as the crawl's seeds; after it, the records of pages no longer reached are deleted and the next recrawl is
// scheduled (design E.6). The crawl runner calls these; the requests themselves go through its request gate.
import { seedCandidates } from '../learning/children';
import type { CrawlConfig } from '../records/config';
import { mulberry32 } from '../records/random';
import { searchSeeds, type ReadPage } from '../strategies/template/search';
import type { CrawlRecord, TemplateRun } from '../records/rows';
import type { CrawlStorePort, RecordPort } from '../ports';
import type { Strategy } from '../strategies/types';
import { siteOf } from '../records/url';
import { recrawlEveryMs, type TemplateConfig } from '../records/template-config';
import { fieldSpecs, type FieldSpec } from '../strategies/template/extract';
import { deleteVanished } from './template-harvest';
import { sampleSeeds, type Sample } from '../strategies/template/sampling';
import { nextRecrawlAt } from '../strategies/template/schedule';

/** Without a schedule, a record's interval still adapts from this base (a day). */
export const DEFAULT_EVERY_MS = 86_400_000;

export const everyOf = (t: TemplateConfig): number => recrawlEveryMs(t) ?? DEFAULT_EVERY_MS;

/** The first cycle of a template; a recrawl makes the next with `nextCycle`. */
export function firstRun(): TemplateRun {
  return { cycle: 1, seeded: false, results: [], skipped: [], owed: [], tried: [], searchPages: 0, searchErrors: [] };
}

/** The cycle after `previous`: it owes the seeds `previous` skipped and knows which it tried. */
export function nextCycle(previous: CrawlRecord): TemplateRun {
  const run = previous.templateRun ?? firstRun();
  return { ...firstRun(), cycle: run.cycle + 1, owed: run.skipped, tried: previous.config.seeds, ...(previous.id === undefined ? {} : { previousCrawlId: previous.id }) };
}

/**
 * Design E.2 and E.3 before the crawl loop: the search (its pages read by `read`, through the crawl's gate), the
 * sample, and the sampled seeds queued; the crawl's row gets the new config (its seeds: what its scope follows)
 * and the cycle's search. Returns that config, or null when the crawl halted during the search.
 */
export async function seedCycle(d: {
  store: CrawlStorePort; crawl: CrawlRecord; config: CrawlConfig; strategy: Strategy; read: ReadPage; halted: () => boolean; now: () => number; log?: (line: string) => void;
}): Promise<CrawlConfig | null> {
  const template = d.config.template!;
  const report = await searchSeeds(template.search, d.read, d.halted);
  if (d.halted()) return null;
  const run = d.crawl.templateRun ?? firstRun();
  // Seeds the user gave come first, then the search's results (design E.2's list N).
  const results = [...new Set([...d.config.seeds, ...report.seeds])];
  const sample = await sampleCycle(d.store.records, d.crawl.name, template, run, results);
  d.log?.(`search: ${results.length} seed(s), ${report.seeds.length} from ${report.pages} page(s); crawling ${sample.taken.length}, skipping ${sample.skipped.length}`);
  const config: CrawlConfig = { ...d.config, seeds: sample.taken };
  await d.store.updateCrawl(d.crawl.id!, {
    config, templateRun: { ...run, seeded: true, results, skipped: sample.skipped, searchPages: report.pages, searchErrors: report.errors },
  });
  await d.store.frontier.enqueue(d.crawl.id!, seedCandidates(config, d.strategy), d.now());
  return config;
}

/** design E.3 over the search's results: which seeds this cycle crawls. */
export async function sampleCycle(records: RecordPort, crawlName: string, template: TemplateConfig, run: TemplateRun, results: string[]): Promise<Sample> {
  if (!template.sampling) return { taken: results, skipped: [] };
  const yielded = new Set((await records.list(crawlName)).map((r) => r.site));
  const barren = new Set(run.tried.filter((seed) => !yielded.has(siteOf(seed))));
  // Seeded per template and cycle: replaying a cycle samples the same seeds.
  const rand = mulberry32(template.randomSeed * 1009 + run.cycle);
  return sampleSeeds({ seeds: results, rand, barren, owed: new Set(run.owed) });
}

const compiled = new WeakMap<TemplateConfig, FieldSpec[]>();

export function specsOf(template: TemplateConfig): FieldSpec[] {
  let specs = compiled.get(template);
  if (!specs) compiled.set(template, (specs = fieldSpecs(template.fields)));
  return specs;
}

/** After a cycle that finished: vanished records deleted, changes counted, the next recrawl's time. */
export async function finishCycle(records: RecordPort, crawl: CrawlRecord, now: number): Promise<TemplateRun> {
  const template = crawl.config.template!;
  const run = crawl.templateRun ?? firstRun();
  await deleteVanished(records, crawl.name, crawl.id!, run.skipped, now);
  const changes = await records.countChanges(crawl.id!);
  const nextAt = template.recrawl ? nextRecrawlAt(await records.list(crawl.name), everyOf(template), now) : undefined;
  return { ...run, changes, ...(nextAt === undefined ? {} : { nextAt }) };
}

/** A cycle that ended before its frontier ran empty: no record is deleted, and it is due again after a period. */
export function cycleCutShort(crawl: CrawlRecord, now: number): TemplateRun {
  const template = crawl.config.template!;
  const run = crawl.templateRun ?? firstRun();
  return { ...run, ...(template.recrawl ? { nextAt: now + everyOf(template) } : {}) };
}
