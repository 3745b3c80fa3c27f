// The toolbar popup: the running crawls and the latest other one (or only ?crawl=ID), live, with their
// controls; "Crawl this site" for the tab it was opened over.
import '@/lib/ui/base.css';
import './style.css';
import { CrawlerDB } from '@/lib/store/db';
import { isToolbarPopup, openDashboard } from '@/lib/platform/actions';
import { byId, crawlIdFromUrl, errorText } from '@/lib/platform/dom';
import { sendMessage } from '@/lib/platform/messaging';
import { popupCrawls, type PopupCrawl } from '@/lib/ui/popup-crawls';
import { watch } from '@/lib/ui/queries';
import { CrawlCard } from './crawl-card';
import { labelActiveTab } from './label-page';
import { setupSiteStart } from './site-start';

const db = new CrawlerDB();
const requestedId = crawlIdFromUrl();
const cards = new Map<number, CrawlCard>();
let shown: PopupCrawl[] = [];

function showError(message: string | null): void {
  const el = byId('popup-error');
  el.hidden = !message;
  el.textContent = message ?? '';
}

function open(crawlId: number | undefined): void {
  const popup = isToolbarPopup();
  openDashboard(crawlId).then(
    () => {
      if (popup) window.close();
    },
    (err) => showError(`Could not open the dashboard: ${errorText(err)}`),
  );
}

/** One card per crawl, kept across updates and put in the order given. */
function render(crawls: PopupCrawl[]): void {
  shown = crawls;
  const list = byId('crawls');
  const empty = byId('empty');
  empty.hidden = crawls.length > 0;
  empty.firstElementChild!.textContent = requestedId === undefined
    ? 'No crawl yet. Crawl the site you are on (below), or start one from the dashboard: give a few start URLs and say what the topic is.'
    : `There is no crawl #${requestedId}. It may have been deleted.`;
  const seen = new Set<number>();
  let previous: Element | null = null;
  for (const snap of crawls) {
    const id = snap.crawl.id!;
    seen.add(id);
    let card = cards.get(id);
    if (!card) cards.set(id, (card = new CrawlCard(id, { openDashboard: open, error: showError })));
    card.update(snap);
    const expected: Element | null = previous ? previous.nextElementSibling : list.firstElementChild;
    if (expected !== card.root) list.insertBefore(card.root, expected);
    previous = card.root;
  }
  for (const [id, card] of cards) {
    if (seen.has(id)) continue;
    card.root.remove();
    cards.delete(id);
  }
}

byId('open-dashboard').addEventListener('click', () => open(shown[0]?.crawl.id));

byId('label-page').addEventListener('click', () => {
  const button = byId<HTMLButtonElement>('label-page');
  const message = byId('label-page-message');
  button.disabled = true;
  labelActiveTab().then(
    (outcome) => {
      button.disabled = false;
      if (outcome.ok && isToolbarPopup()) return window.close();
      message.hidden = false;
      message.classList.toggle('error', !outcome.ok);
      message.textContent = outcome.message;
    },
    (err) => {
      button.disabled = false;
      message.hidden = false;
      message.classList.add('error');
      message.textContent = `Could not start the labeler: ${errorText(err)}`;
    },
  );
});

setupSiteStart(db).catch((err: unknown) => showError(`Could not read this tab: ${errorText(err)}`));

watch(
  () => popupCrawls(db, (crawlId) => sendMessage('fetchingNow', { crawlId }), requestedId),
  render,
  (err) => showError(`Could not read the crawl database: ${errorText(err)}`),
);
