// The dashboard: start crawls, watch and control them, browse and export their pages (the Crawls view);
// label links and manage each topic's labels and model (the Topics view, ?view=topics&topic=ID).
import '@/lib/ui/base.css';
// The page's stylesheets, in the order of the cascade: a later sheet's rule wins over an earlier one's of the same
// specificity (the labels table's over the shared tables', the template field's over the form fields').
import './layout.css';
import './crawl-list.css';
import './form-fields.css';
import './new-crawl-form.css';
import './crawl-detail.css';
import './tables.css';
import './topics-view.css';
import './labeling-queue.css';
import './labels-table.css';
import './records-view.css';
import { CrawlerDB } from '@/lib/store/db';
import { type CrawlRecord } from '@/lib/records/rows.ts';
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

const list = new CrawlList(db, {
  select: (id) => {
    select(id);
    showDetail();
  },
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

/** One column (the window at most 900 px wide): the form folds away, the detail comes after the list. */
const oneColumn = matchMedia('(max-width: 900px)');

/** Brings the selected crawl's detail into view and puts the focus on its heading, so a click in the list shows it. */
function showDetail(): void {
  const detail = byId('crawl-detail');
  // A crawl just started is selected before its row arrives: its place is shown until then.
  if (detail.hidden) return byId('main').scrollIntoView({ block: 'start' });
  detail.scrollIntoView({ block: 'start' });
  byId('detail-name').focus({ preventScroll: true });
}

/** Folds or opens the New crawl form (folded, it shows only on two columns, beside the list). */
function foldForm(folded: boolean): void {
  byId('crawls-view').classList.toggle('form-folded', folded);
  byId('new-crawl-toggle').setAttribute('aria-expanded', String(!folded || !oneColumn.matches));
}
/** Set once the first crawls are read: folded when there are some, open on a first visit. */
let formFoldChosen = false;

byId('new-crawl-toggle').addEventListener('click', () => {
  const opening = !oneColumn.matches || byId('crawls-view').classList.contains('form-folded');
  foldForm(!opening);
  if (!opening) return;
  byId('form-panel').scrollIntoView({ block: 'start' });
  byId<HTMLFormElement>('new-crawl-form').querySelector<HTMLInputElement>('input[name=name]')?.focus({ preventScroll: true });
});
oneColumn.addEventListener('change', () => foldForm(byId('crawls-view').classList.contains('form-folded')));

function showDetailError(message: string | null): void {
  const el = byId('detail-error');
  el.hidden = !message;
  el.textContent = message ?? '';
}

setupNewCrawlForm((crawlId) => {
  justStarted = crawlId;
  foldForm(true);
  select(crawlId);
  // Bring the new crawl into view: the top of the page on two columns, the detail below the list on one.
  if (oneColumn.matches) showDetail();
  else window.scrollTo({ top: 0 });
}, db);
const exportPanel = new ExportPanel(db, showDetailError);
exposeExportHook(db);

watch(
  () => allCrawls(db),
  (rows) => {
    crawls = rows;
    const first = !formFoldChosen;
    if (first) {
      formFoldChosen = true;
      foldForm(rows.length > 0);
    }
    render();
    // Opened on a crawl (from the popup) on one column: its detail, not the list, is what the user came for.
    if (first && crawlIdFromUrl() !== undefined && oneColumn.matches) showDetail();
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
