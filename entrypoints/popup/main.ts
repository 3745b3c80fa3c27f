// The toolbar popup: live numbers of one crawl (the newest, or ?crawl=ID) and its controls.
import '@/lib/ui/base.css';
import './style.css';
import { CrawlerDB } from '@/lib/store/db';
import { controlCrawl, isToolbarPopup, openDashboard, type CrawlControl } from '@/lib/platform/actions';
import { byId, crawlIdFromUrl, errorText } from '@/lib/platform/dom';
import { crawlOrNewest, inFlight, recentErrors, watch } from '@/lib/ui/queries';
import { labelActiveTab } from './label-page';
import { renderPopup, type PopupSnapshot } from './render';

const db = new CrawlerDB();
const requestedId = crawlIdFromUrl();
let snapshot: PopupSnapshot = { crawl: undefined, inFlight: [], errors: [] };
let busy = false;

function showError(message: string | null): void {
  const el = byId('popup-error');
  el.hidden = !message;
  el.textContent = message ?? '';
}

async function readSnapshot(): Promise<PopupSnapshot> {
  const crawl = await crawlOrNewest(db, requestedId);
  if (!crawl) return { crawl, inFlight: [], errors: [] };
  const [flying, errors] = await Promise.all([inFlight(db, crawl.id!), recentErrors(db, crawl, 5)]);
  return { crawl, inFlight: flying, errors };
}

async function control(action: CrawlControl): Promise<void> {
  const id = snapshot.crawl?.id;
  if (id === undefined) return;
  busy = true;
  renderPopup(snapshot, requestedId, busy);
  try {
    await controlCrawl(action, id);
    showError(null);
  } catch (err) {
    showError(`Could not ${action} the crawl: ${errorText(err)}`);
  } finally {
    busy = false;
    renderPopup(snapshot, requestedId, busy);
  }
}

for (const action of ['pause', 'resume', 'stop'] as const) {
  byId(action).addEventListener('click', () => void control(action));
}

byId('open-dashboard').addEventListener('click', () => {
  const popup = isToolbarPopup();
  openDashboard(snapshot.crawl?.id).then(
    () => {
      if (popup) window.close();
    },
    (err) => showError(`Could not open the dashboard: ${errorText(err)}`),
  );
});

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

watch(
  readSnapshot,
  (snap) => {
    snapshot = snap;
    renderPopup(snap, requestedId, busy);
  },
  (err) => showError(`Could not read the crawl database: ${errorText(err)}`),
);
