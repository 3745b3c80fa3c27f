// The selected crawl's settings as the detail lists them (its dl of settings): its topic, seeds, strategy and
// template, scope, limits, politeness, identity and safety, the frontier's last re-scoring, and what a strategy
// reports of itself (HITS's link graph, multi-queue's queues).
import type { CrawlRecord, RescoreReport } from '@/lib/records/rows.ts';
import type { Topic } from '@/lib/records/types.ts';
import { h, type Child } from '@/lib/platform/dom';
import { authorityText, formatCount, formatDateTime, formatDuration } from '@/lib/ui/format';
import { identityText, scopeText } from '@/lib/ui/config-form';
import { strategyModule } from '@/lib/strategies/registry';
import { engineUrl } from '@/lib/records/template-config.ts';
import { queueWeight } from '@/lib/strategies/multi-queue/weights';
import { queueLoads } from '@/lib/store/fifo-queues';
import { learnedText, sitemapsText } from '@/lib/ui/duplicate-words';
import { isTemplate } from './crawl-counters';

/** The crawl's settings as term and description pairs; `topic` is its topic row, when read. */
export function crawlSettings(crawl: CrawlRecord, topic: Topic | undefined): Child[] {
  const { config } = crawl;
  const scope = scopeText(config.scope);
  const p = config.politeness;
  const template = isTemplate(crawl);
  // What applies to the crawl's kind only: a template's seeds are its search's results, its words the template's.
  const rows: [string, Child][] = [
    ['Topic', h('a', { href: `?view=topics&topic=${crawl.topicId}`, 'data-testid': 'detail-topic', title: "The topic's labels, model and evaluation" }, topic ? topic.name : `#${crawl.topicId}`)],
    ...(template
      ? [['Search', h('span', { 'data-testid': 'detail-search' }, searchText(crawl))] as [string, Child]]
      : [['Seeds', crawl.seedsGiven ? `${formatCount(crawl.seedsGiven)} seeds given; the first of each host:\n${config.seeds.join('\n')}` : config.seeds.join('\n')] as [string, Child]]),
    ...(template && !config.topic.keywords.length ? [] : [['Keywords', keywordsRow(config.topic.keywords, topic)] as [string, Child]]),
    ['Strategy', strategyText(config.strategy)],
    ...(config.template ? [['Template', templateText(config.template)] as [string, Child]] : []),
    ...(template ? [] : [
      ['Sitemaps', h('span', { 'data-testid': 'detail-sitemaps' }, sitemapsText(crawl))],
      ['Learned URLs', h('span', { 'data-testid': 'detail-learned', title: 'What the crawl learned of its sites\' URLs: parameters and suffixes that do not change a page\'s content, whose URLs it then did not request' }, learnedText(crawl.variants).join('\n') || 'nothing yet')],
    ] as [string, Child][]),
    ['Scope', h('span', { 'data-testid': 'detail-scope' }, template ? templateScopeText(config.scope) : scope)],
    ['Limits', `${formatCount(config.budget.maxPages)} pages, depth ${config.budget.maxDepth}`],
    ['Politeness', `${p.delayMs} ms delay, ${p.concurrency} at once, robots.txt ${p.robots ? 'obeyed' : 'ignored'}`],
    ['User-Agent', h('span', { 'data-testid': 'detail-identify' }, identityText(config))],
    ['Safety', h('span', { 'data-testid': 'detail-safety' }, safetyText(config.safety, crawl.allowed))],
    // Only a strategy that follows the link classifier re-scores its frontier and weighs a URL's authority (a template
    // follows its filter layers, breadth-first and multi-queue their own orders).
    ...(!strategyModule(config.strategy.name)?.followsModel ? [] : [
      ['Re-scored', h('span', { 'data-testid': 'detail-rescore' }, rescoreText(crawl))],
      ['URL authority', h('span', { 'data-testid': 'detail-authority', title: 'How often the labeled pages that link to a URL are on topic, and what that does to its score' }, authorityText(crawl))],
    ] as [string, Child][]),
    ...linkGraphRows(crawl.strategyReport),
    ...queueRows(crawl),
  ];
  return rows.flatMap(([k, v]) => [h('dt', null, k), h('dd', null, v)]);
}

/**
 * A template crawl's seeds: its search's results this cycle, those it crawls (design E.2, E.3); before the search
 * has run, that it will.
 */
function searchText(crawl: CrawlRecord): string {
  const run = crawl.templateRun;
  if (!run?.seeded) return crawl.state === 'running' || crawl.state === 'training' ? 'searching now: its results become the seeds' : 'not run: its results become the seeds';
  const crawled = run.results.length - run.skipped.length;
  const pages = `${formatCount(run.searchPages)} result page${run.searchPages === 1 ? '' : 's'}`;
  const sample = run.skipped.length ? `; ${formatCount(crawled)} crawled this cycle, ${formatCount(run.skipped.length)} left for the next (sampling)` : '; every one crawled';
  const errors = run.searchErrors.length ? `; ${formatCount(run.searchErrors.length)} result page${run.searchErrors.length === 1 ? '' : 's'} could not be read` : '';
  return `${formatCount(run.results.length)} result${run.results.length === 1 ? '' : 's'} from ${pages}${sample}${errors}`;
}

/** A template crawl's scope: its search's results take the place of seeds, and the engine is in scope as one. */
function templateScopeText(scope: CrawlRecord['config']['scope']): string {
  switch (scope.mode) {
    case 'seed-hosts': return "the hosts of the search's results, and the engine's";
    case 'seed-sites': return "the sites of the search's results (every subdomain), and the engine's";
    case 'listed-sites': return `listed sites: ${scope.sites.join(', ')}, and the engine's`;
    case 'anywhere': return 'anywhere';
  }
}

/** "sparse-tunneling (longest tunnel 10, queue per unknown site 15, blacklist after 20)". */
function strategyText(strategy: CrawlRecord['config']['strategy']): string {
  const params = strategyModule(strategy.name)?.params ?? [];
  const shown = (v: unknown) => (Array.isArray(v) ? (v.length ? v.join(' ') : 'none') : String(v));
  const set = params.map((p) => `${p.label.toLowerCase()} ${shown(strategy[p.key] ?? p.default)}`);
  return set.length ? `${strategy.name} (${set.join(', ')})` : strategy.name;
}

/** A template in a few lines: where it searches, what it follows, what it extracts, how often (design E). */
function templateText(t: NonNullable<CrawlRecord['config']['template']>): string {
  return [
    `search ${t.search.keywords.map((k) => `"${k}"`).join(', ')} on ${new URL(engineUrl(t)).host}, ${t.search.pages} page(s) of ${t.search.perPage}${t.sampling ? ', sampled' : ''}`,
    ...t.filters.map((layer, i) => `layer ${i + 1}: ${layer.join(' / ')}`),
    `fields: ${Object.keys(t.fields).join(', ')}`,
    t.recrawl ? `recrawled every ${t.recrawl.every}, adapting to how often pages change` : 'recrawled when you ask',
  ].join('\n');
}

/**
 * Design D.3, when the crawl takes by FIFO queues: each queue's length and fetches in flight as the crawl row
 * counts them (live), and its weight with the iFactor the strategy reported last.
 */
function queueRows(crawl: CrawlRecord): [string, Child][] {
  const report = crawl.strategyReport;
  if (!crawl.queues || typeof report?.iFactor !== 'number' || typeof report.maxPriority !== 'number') return [];
  const max = report.maxPriority, iFactor = report.iFactor;
  const loads = queueLoads(crawl.queues).sort((a, b) => b.priority - a.priority);
  const reads = typeof report.listReads === 'number' ? report.listReads : 0;
  const learned = reads ? `learned from ${formatCount(reads)} list page${reads === 1 ? '' : 's'} read` : 'as configured, until a list page is read';
  return [
    ['iFactor', `${iFactor.toFixed(1)} (${learned})`],
    ['Queues', loads.length === 0 ? 'all empty' : h('table', { class: 'queues', 'data-testid': 'detail-queues' },
      h('thead', null, h('tr', null, h('th', null, 'Priority'), h('th', null, 'Queued'), h('th', null, 'In flight'), h('th', { title: 'len / iFactor^(max - priority) / (1 + in flight): the heaviest queue gives the next URL' }, 'Weight'))),
      h('tbody', null, ...loads.map((q) => h('tr', { 'data-testid': 'queue-row', 'data-priority': q.priority },
        h('td', null, String(q.priority)), h('td', null, formatCount(q.queued)), h('td', null, String(q.inFlight)),
        h('td', null, queueWeight(q, max, iFactor).toPrecision(3))))))],
  ];
}

/** HITS's best authorities and hubs (design C), when the crawl's strategy keeps a link graph. */
function linkGraphRows(report: CrawlRecord['strategyReport']): [string, Child][] {
  const list = (items: unknown, testid: string): Child => {
    const rows = Array.isArray(items) ? (items as { url: string; score: number }[]).slice(0, 5) : [];
    return h('ol', { class: 'graph-top', 'data-testid': testid }, ...rows.map((r) => h('li', { title: r.url }, h('span', { class: 'url' }, r.url), ` ${r.score.toFixed(3)}`)));
  };
  if (!report || !Array.isArray(report.authorities)) return [];
  const round = report.round as { nodes: number; edges: number; iterations: number; ms: number; at?: number; pages?: number } | undefined;
  const spent = report.spent as { rounds: number; ms: number } | undefined;
  const all = spent && spent.rounds > 1 ? `; ${formatCount(spent.rounds)} rounds since the crawl (re)started, ${Math.round(spent.ms)} ms in all` : '';
  // Rounds saved before they said when and over how many relevant pages show what they have.
  const over = round?.pages !== undefined ? `${formatCount(round.pages)} relevant pages linking ${formatCount(round.nodes)} URLs` : `${formatCount(round?.nodes ?? 0)} pages`;
  const when = round?.at !== undefined ? ` at ${formatDateTime(round.at)}` : '';
  return [
    ['Link graph', round ? `last HITS round${when} over ${over} by ${formatCount(round.edges)} links: ${round.iterations} iterations in ${Math.round(round.ms)} ms${all}` : ''],
    ['Top authorities', list(report.authorities, 'detail-authorities')],
    ['Top hubs', list(report.hubs, 'detail-hubs')],
  ];
}

/** "all rules on", or which are off, the user's own words, and what the user allowed after it was kept, with when. */
function safetyText(safety: CrawlRecord['config']['safety'], allowances: CrawlRecord['allowed']): string {
  // Crawls stored before rules had names have no disabledRules.
  const off = safety.disabledRules ?? [];
  const rules = off.length ? `rules off: ${off.join(', ')}` : 'all rules on';
  const words = safety.avoid.length ? `; also your words: ${safety.avoid.join(', ')}` : '';
  const allowed = (allowances ?? []).map((a) => `${'url' in a ? a.url : `${a.rule} “${a.match}”`} (${new Date(a.at).toLocaleString()})`);
  return `${rules}${words}${allowed.length ? `; allowed by you: ${allowed.join(', ')}` : ''}`;
}

/** The crawl's keywords; a crawl started without any uses its topic's (which may have changed since). */
function keywordsRow(own: string[], topic: Topic | undefined): string {
  if (own.length) return own.join(', ');
  return topic?.keywords.length ? `${topic.keywords.join(', ')} (the topic's)` : '—';
}

/** "2026-11-22 14:05 (50 pages fetched): 340 queued links moved, of 1,200 frontier URLs read, in 85 ms". */
export function rescoreText(crawl: Pick<CrawlRecord, 'lastRescore' | 'config'>): string {
  const r: RescoreReport | undefined = crawl.lastRescore;
  if (!r) return strategyModule(crawl.config.strategy.name)?.followsModel ? 'not yet: the frontier is re-scored as the model learns' : `never (${crawl.config.strategy.name})`;
  const took = r.ms < 1000 ? `${Math.round(r.ms)} ms` : formatDuration(r.ms);
  const partial = r.complete === false ? '; stopped early when the crawl paused or ended, it goes on when the crawl resumes' : '';
  return `${formatDateTime(r.at)} (${r.why}): ${formatCount(r.changed)} queued links moved, of ${formatCount(r.scanned)} frontier URLs read, in ${took}${partial}`;
}
