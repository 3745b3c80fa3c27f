// The dashboard: start crawls, watch and control them, browse and export their pages (the Crawls view);
// label links and manage each topic's labels and model (the Topics view, ?view=topics&topic=ID).
import '@/lib/ui/base.css';
import './style.css';
import { CrawlerDB } from '@/lib/store/db';
import { type CrawlRecord } from '@/lib/records';
import { byId, crawlIdFromUrl, errorText } from '@/lib/platform/dom';
import { allCrawls, watch } from '@/lib/ui/queries';
import { CrawlDetail } from './crawl-detail';
import { CrawlList } from './crawl-list';
import { ExportPanel, exposeExportHook } from './export';
import { showStorage } from './storage';
import { showVerdictLine } from './verdict-line';
import { setupNewCrawlForm } from './new-crawl-form';
import { PagesTable } from './pages-table';
import { RecordsPanel } from './records-panel';
import { TopicsView } from './topics-view';
import { topicIdFromUrl } from './topic-ui';

const db = new CrawlerDB();
let crawls: CrawlRecord[] = [];
/** The crawl shown on the right; from ?crawl=ID, a click, or the newest crawl. */
let selectedId = crawlIdFromUrl();
/** A crawl just started: selected before its row reaches this page's list. */
let justStarted: number | undefined;

const list = new CrawlList({
  select: (id) => select(id),
  deleted: (id) => {
    if (id === selectedId) select(undefined);
  },
});
const detail = new CrawlDetail(db);
const pages = new PagesTable(db);
const records = new RecordsPanel(db);

function select(id: number | undefined): void {
  selectedId = id;
  const url = new URL(location.href);
  if (id === undefined) url.searchParams.delete('crawl');
  else url.searchParams.set('crawl', String(id));
  history.replaceState(null, '', url);
  render();
}

function render(): void {
  // A crawl that is gone (deleted, or a stale ?crawl=ID) gives way to the newest one.
  if (crawls.some((c) => c.id === justStarted)) justStarted = undefined;
  if ((justStarted === undefined || selectedId !== justStarted) && !crawls.some((c) => c.id === selectedId)) {
    const fallback = crawls[0]?.id;
    if (fallback !== selectedId) return select(fallback);
  }
  list.render(crawls, selectedId);
  const crawl = crawls.find((c) => c.id === selectedId);
  detail.render(crawl);
  exportPanel.show(crawl);
  showStorage(crawl);
  showVerdictLine(db, crawl);
  pages.show(crawl?.id);
  records.show(crawl);
}

function showDetailError(message: string | null): void {
  const el = byId('detail-error');
  el.hidden = !message;
  el.textContent = message ?? '';
}

setupNewCrawlForm((crawlId) => {
  justStarted = crawlId;
  select(crawlId);
  // Bring the new crawl into view: the top of the page on two columns, the detail below the list on one.
  if (matchMedia('(max-width: 900px)').matches) byId('main').scrollIntoView({ block: 'start' });
  else window.scrollTo({ top: 0 });
}, db);
const exportPanel = new ExportPanel(db, showDetailError);
exposeExportHook(db);

watch(
  () => allCrawls(db),
  (rows) => {
    crawls = rows;
    render();
  },
  (err) => {
    const el = byId('list-error');
    el.hidden = false;
    el.textContent = `Could not read the crawl database: ${errorText(err)}`;
  },
);

// ---- views: Crawls (the default) and Topics ----

type View = 'crawls' | 'topics';
const viewFromUrl = (): View => (new URLSearchParams(location.search).get('view') === 'topics' ? 'topics' : 'crawls');
/** Built the first time the Topics view is shown: until then it reads nothing. */
let topics: TopicsView | undefined;

function showView(view: View): void {
  byId('crawls-view').hidden = view !== 'crawls';
  byId('topics-view').hidden = view !== 'topics';
  for (const tab of document.querySelectorAll<HTMLAnchorElement>('a.view-tab')) {
    tab.setAttribute('aria-current', tab.dataset.view === view ? 'page' : 'false');
  }
  document.title = view === 'topics' ? 'Focus topics' : 'Focus dashboard';
  if (view === 'topics') (topics ??= new TopicsView(db)).open(topicIdFromUrl());
}

for (const tab of document.querySelectorAll<HTMLAnchorElement>('a.view-tab')) {
  tab.addEventListener('click', (ev) => {
    if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey) return; // a new tab or window opens the link
    ev.preventDefault();
    const view = tab.dataset.view as View;
    const url = new URL(location.href);
    if (view === 'crawls') url.searchParams.delete('view');
    else url.searchParams.set('view', view);
    if (url.href !== location.href) history.pushState(null, '', url);
    showView(view);
  });
}
addEventListener('popstate', () => showView(viewFromUrl()));
showView(viewFromUrl());
