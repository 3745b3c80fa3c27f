// The Sites panel of a crawl: each site's fetched, relevant and off-topic pages, its queued URLs and its state
// (on topic / unknown / blacklisted and why), with Blacklist and Unblock, which a running crawl obeys at its
// next page (design B.4, B.5). Live: it re-reads as the crawl goes, at most every REREAD_MS (lib/ui/queries.ts).
// A template crawl's sites show their records instead of relevant and off-topic pages (design E: its keyword judge
// calls every page relevant).
import Dexie from 'dexie';
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlerDB } from '@/lib/store/db';
import type { CrawlRecord } from '@/lib/records/rows.ts';
import { sitesOf } from '@/lib/store/site-book';
import { errorText, fill, h } from '@/lib/platform/dom';
import { formatCount } from '@/lib/ui/format';
import { watchThrottled } from '@/lib/ui/queries';

/** Sites listed; a crawl of the open web can touch thousands. */
const SHOWN = 100;

type SiteRow = Awaited<ReturnType<typeof sitesOf>>[number] & { records?: number };

const TOPIC_HEADS = ['Site', 'Fetched', 'Relevant', 'Off topic', 'Queued', 'State', ''];
const TEMPLATE_HEADS = ['Site', 'Fetched', 'Records', 'Queued', 'State', ''];

/** The sites of a crawl; a template crawl's with the records each gave. */
async function siteRows(db: CrawlerDB, crawl: CrawlRecord): Promise<SiteRow[]> {
  const [sites, records] = await Promise.all([
    sitesOf(db, crawl.id!),
    crawl.config.template ? db.records.where('crawlName').equals(crawl.name).toArray() : undefined,
  ]);
  if (!records) return sites;
  const bySite = new Map<string, number>();
  for (const r of records) bySite.set(r.site, (bySite.get(r.site) ?? 0) + 1);
  return sites.map((s) => ({ ...s, records: bySite.get(s.site) ?? 0 }));
}

export class SitesPanel {
  readonly root: HTMLElement;
  private readonly body: HTMLElement;
  private readonly headRow: HTMLElement;
  private readonly count: HTMLElement;
  private crawl: CrawlRecord | undefined;
  private watching: number | undefined;
  private unwatch: (() => void) | undefined;

  constructor(private readonly db: CrawlerDB) {
    this.body = h('tbody');
    this.headRow = h('tr', null, ...TOPIC_HEADS.map((t) => h('th', null, t)));
    this.count = h('small', { class: 'muted', 'data-testid': 'sites-count' });
    this.root = h(
      'section',
      { class: 'learning-block', 'data-testid': 'sites' },
      h('h3', { title: 'Sites are registrable domains: news.example.org and www.example.org are example.org' }, 'Sites ', this.count),
      h('table', { class: 'sites-table' },
        h('thead', null, this.headRow),
        this.body),
    );
  }

  show(crawl: CrawlRecord | undefined): void {
    this.crawl = crawl;
    const id = crawl?.id;
    if (id === this.watching) return;
    this.watching = id;
    this.unwatch?.();
    this.unwatch = undefined;
    fill(this.body);
    fill(this.headRow, ...(crawl?.config.template ? TEMPLATE_HEADS : TOPIC_HEADS).map((t) => h('th', null, t)));
    if (id === undefined || !crawl) return;
    this.unwatch = watchThrottled(
      // The crawl row changes with every page and every URL queued; a site row when it is blacklisted or unblocked;
      // a template's records when a page gives one.
      () => Promise.all([
        this.db.crawls.get(id),
        this.db.sites.where('[crawlId+site]').between([id, Dexie.minKey], [id, Dexie.maxKey]).limit(1).toArray(),
        crawl.config.template ? this.db.records.where('crawlName').equals(crawl.name).limit(1).toArray() : undefined,
      ]),
      () => siteRows(this.db, crawl),
      (rows) => this.render(rows),
      (err) => fill(this.body, h('tr', null, h('td', { colspan: '7', class: 'error-text' }, `Could not read the sites: ${errorText(err)}`))),
    );
  }

  private render(rows: SiteRow[]): void {
    const blacklisted = rows.filter((r) => this.closedBy(r)).length;
    this.count.textContent = rows.length === 0 ? '' : `${formatCount(rows.length)} with pages fetched, ${formatCount(blacklisted)} blacklisted`;
    if (rows.length === 0) {
      fill(this.body, h('tr', null, h('td', { colspan: String(this.headRow.children.length), class: 'empty muted' }, 'No page fetched yet.')));
      return;
    }
    fill(this.body, ...rows.slice(0, SHOWN).map((r) => this.row(r)));
  }

  /** Why the site is closed: by the crawl, by you, or in the config's list; null when open. */
  private closedBy(r: SiteRow): string | null {
    if (r.blacklisted) return r.blacklisted;
    return this.crawl?.config.siteBlacklist?.includes(r.site) ? "listed in the crawl's site blacklist" : null;
  }

  private row(r: SiteRow): HTMLElement {
    const closed = this.closedBy(r);
    const inConfig = !r.blacklisted && closed !== null;
    const state = closed ? 'blacklisted' : r.records !== undefined ? (r.records > 0 ? 'has a record' : 'no record') : r.relevant > 0 ? 'on topic' : 'unknown';
    const counts = r.records !== undefined
      ? [h('td', { class: 'num', 'data-testid': 'site-records' }, formatCount(r.records))]
      : [h('td', { class: 'num' }, formatCount(r.relevant)), h('td', { class: 'num' }, formatCount(r.fetched - r.relevant))];
    const button = inConfig
      ? h('span', { class: 'muted small', title: 'Change the config to open it' }, 'in the config')
      : h('button', { type: 'button', class: 'small', 'data-testid': 'site-toggle', onclick: (e: Event) => this.toggle(r.site, !closed, e.currentTarget as HTMLButtonElement) }, closed ? 'Unblock' : 'Blacklist');
    return h(
      'tr',
      { 'data-testid': 'site-row', 'data-site': r.site, class: closed ? 'blacklisted' : '' },
      h('td', { class: 'url' },
        h('button', { type: 'button', class: 'link-button', 'data-testid': 'site-pages', title: `Show the pages of ${r.site} in the Pages table`, onclick: () => showSitePages(r.site) }, r.site)),
      h('td', { class: 'num' }, formatCount(r.fetched)),
      ...counts,
      h('td', { class: 'num' }, formatCount(r.queued)),
      h('td', { 'data-testid': 'site-state', title: closed ?? '' }, state, closed ? h('small', { class: 'muted' }, ` (${closed})`) : null),
      h('td', null, button),
    );
  }

  private toggle(site: string, on: boolean, button: HTMLButtonElement): void {
    const id = this.crawl?.id;
    if (id === undefined) return;
    button.disabled = true;
    sendMessage('setSiteBlacklisted', { crawlId: id, site, on }).catch((err: unknown) => {
      button.disabled = false;
      button.title = errorText(err);
    });
  }
}

/** The event the Pages table listens for to show one site's pages (the two panels know nothing else of each other). */
export const SHOW_SITE_PAGES = 'focus:show-site-pages';

function showSitePages(site: string): void {
  document.dispatchEvent(new CustomEvent<string>(SHOW_SITE_PAGES, { detail: site }));
}
