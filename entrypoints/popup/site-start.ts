// "Crawl this site": a crawl that starts on the tab's page, stays on its host, and learns a topic chosen here or a new
// one whose keywords the page suggests (its title, headings and the text around its links: lib/ui/page-keywords.ts).
// One click on Start after opening it.
import { isToolbarPopup, openDashboard, requestHostAccess } from '@/lib/platform/actions';
import { byId, errorText, fill, h } from '@/lib/platform/dom';
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlerDB } from '@/lib/store/db';
import type { Topic } from '@/lib/records/types.ts';
import { keywordList, keywordsText } from '@/lib/ui/config-form';
import { allTopics } from '@/lib/ui/label-queries';
import { siteStartConfig, siteStartLimits, siteStartProblem } from '@/lib/ui/site-start';
import { keywordsFromPage } from '@/lib/ui/page-keywords';
import { readTabPage, targetTab } from './tab-page';

export async function setupSiteStart(db: CrawlerDB): Promise<void> {
  const details = byId<HTMLDetailsElement>('site-start');
  const problem = byId('site-problem');
  const form = byId<HTMLFormElement>('site-form');
  const topicSelect = byId<HTMLSelectElement>('site-topic');
  const keywords = byId<HTMLInputElement>('site-keywords');
  const openAfter = byId<HTMLInputElement>('site-open-dashboard');
  const startButton = byId<HTMLButtonElement>('site-start-button');
  const error = byId('site-error');
  const say = (el: HTMLElement, message: string | null) => {
    el.hidden = !message;
    el.textContent = message ?? '';
  };

  const target = await targetTab();
  const why = 'problem' in target ? target.problem : siteStartProblem(target.url);
  if ('problem' in target || why) {
    say(problem, why);
    form.hidden = true;
    return;
  }
  const url = target.url!;
  byId('site-host').textContent = new URL(url).host;
  byId('site-limits').textContent = siteStartLimits(url);

  let suggested: string[] = [];
  let topics: Topic[] = [];
  let read: Promise<void> | undefined;
  /** Read once, when the user opens the section: nothing runs in the page before that. */
  const readPage = () => (read ??= (async () => {
    const [page, rows] = await Promise.all([readTabPage(target.tabId, url, target.title), allTopics(db)]);
    suggested = keywordsFromPage(page);
    topics = rows;
    fill(topicSelect,
      h('option', { value: '' }, 'New topic, from these keywords'),
      ...[...rows].sort((a, b) => a.name.localeCompare(b.name)).map((t) => h('option', { value: String(t.id) }, t.name)));
    keywords.value = suggested.join(', ');
    form.hidden = false;
    keywords.focus();
  })().catch((err: unknown) => say(problem, `Could not read this page: ${errorText(err)}`)));

  details.addEventListener('toggle', () => {
    if (details.open) void readPage();
  });
  // A chosen topic brings its own keywords (editable); a new one the page's.
  topicSelect.addEventListener('change', () => {
    const topic = topics.find((t) => String(t.id) === topicSelect.value);
    keywords.value = topic ? keywordsText(topic) : suggested.join(', ');
  });

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    // Firefox asks for host access only during the click itself: nothing is awaited before this.
    const access = requestHostAccess();
    startButton.disabled = true;
    say(error, null);
    const topicId = topicSelect.value ? Number(topicSelect.value) : undefined;
    void (async () => {
      try {
        if (!(await access)) throw new Error('Focus needs access to web sites to crawl them.');
        const { crawlId } = await sendMessage('start', siteStartConfig({ url, keywords: keywordList(keywords.value), topicId }));
        details.open = false;
        if (openAfter.checked) {
          const popup = isToolbarPopup();
          await openDashboard(crawlId);
          if (popup) window.close();
        }
      } catch (err) {
        say(error, `Could not start the crawl: ${errorText(err)}`);
      } finally {
        startButton.disabled = false;
      }
    })();
  });
}
