// Page object for the dashboard's Topics view, and a fixture of topics, labels and a queued frontier written
// straight into the extension's database (to look at the view populated, as ui-fixtures.ts does for crawls).
import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { DEFAULTS } from '../../lib/records/config';
import type { CrawlRecord } from '../../lib/records/rows';
import type { FrontierEntry, LabeledLink, LabelSource, Topic } from '../../lib/records/types';

export interface LabelRow {
  url: string;
  label: string;
  source: string;
}

export class TopicsPage {
  constructor(readonly page: Page, private readonly extensionId: string) {}

  async open(topicId?: number): Promise<this> {
    const topic = topicId === undefined ? '' : `&topic=${topicId}`;
    await this.page.goto(`chrome-extension://${this.extensionId}/dashboard.html?view=topics${topic}`);
    await this.page.getByTestId('topics-view').waitFor();
    return this;
  }

  private get p(): Page {
    return this.page;
  }

  text = (testid: string): Promise<string> => this.p.getByTestId(testid).innerText();

  /** The topic picked in the bar, by the number in the page's address. */
  async topicId(): Promise<number | undefined> {
    const id = Number(new URL(this.p.url()).searchParams.get('topic'));
    return id > 0 ? id : undefined;
  }

  async createTopic(name: string, keywords: string): Promise<void> {
    if (await this.p.getByTestId('topic-form').isHidden()) await this.p.getByTestId('topic-new').click();
    await this.p.getByTestId('topic-form-name').fill(name);
    await this.p.getByTestId('topic-form-keywords').fill(keywords);
    await this.p.getByTestId('topic-form-save').click();
    await this.p.getByTestId('topic-select').locator('option:checked', { hasText: name }).waitFor({ state: 'attached' });
  }

  async selectedTopicName(): Promise<string> {
    return this.p.getByTestId('topic-select').locator('option:checked').innerText();
  }

  async labelRows(): Promise<LabelRow[]> {
    return this.p.getByTestId('label-row').evaluateAll((rows) =>
      rows.map((tr) => ({
        url: (tr as HTMLElement).dataset.url ?? '',
        label: tr.querySelector('[data-testid=label-value]')?.textContent ?? '',
        source: tr.querySelector('[data-testid=label-source]')?.textContent ?? '',
      })),
    );
  }

  async filter(f: { label?: 'all' | 'on' | 'off'; source?: 'all' | LabelSource; site?: string }): Promise<void> {
    if (f.label) await this.p.getByTestId('labels-label').selectOption(f.label);
    if (f.source) await this.p.getByTestId('labels-source').selectOption(f.source);
    if (f.site !== undefined) await this.p.getByTestId('labels-site').fill(f.site);
  }

  /** Ticks the row of this URL in the labels table. */
  async check(url: string, opts: { shift?: boolean } = {}): Promise<void> {
    await this.p.locator(`tr[data-url="${url}"] [data-testid=label-check]`).click({ modifiers: opts.shift ? ['Shift'] : [] });
  }

  async importLabels(name: string, text: string): Promise<void> {
    await this.p.getByTestId('labels-import').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  }

  async importModel(name: string, text: string): Promise<void> {
    await this.p.getByTestId('model-import').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
  }

  /** Clicks a button that downloads a file; returns the file's name and text. */
  async download(testid: string): Promise<{ name: string; text: string }> {
    const [download] = await Promise.all([this.p.waitForEvent('download') as Promise<Download>, this.p.getByTestId(testid).click()]);
    const path = await download.path();
    return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
  }

  queueItems = () => this.p.getByTestId('queue-item');

  async waitFor(predicate: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!(await predicate())) {
      if (Date.now() > end) throw new Error(`the Topics view never showed ${what}`);
      await this.p.waitForTimeout(100);
    }
  }
}

// ---- a populated fixture (for screenshots) ----

export interface TopicsFixture {
  topics: Topic[];
  labels: LabeledLink[];
  crawls: CrawlRecord[];
  frontier: FrontierEntry[];
  activeTopicId: number;
}

const WORDS = ['telescope', 'galaxy', 'planet', 'comet', 'nebula', 'recipe', 'football', 'opening hours', 'sourdough', 'eclipse', 'book sale', 'chess'];
const HOSTS = ['library.example', 'sky.example', 'news.example', 'kitchen.example'];
const SOURCES: LabelSource[] = ['user', 'page', 'verdict', 'auto', 'verdict', 'user'];

/** Three topics; the first has 64 labels of every source and a crawl with 60 queued links near P = 0.5. */
export function topicsFixture(now = Date.now()): TopicsFixture {
  const topic = (id: number, name: string, keywords: string[]): Topic => ({ id, name, keywords, revision: 0, createdAt: now - id * 86_400_000, updatedAt: now });
  const topics = [
    topic(1, 'Astronomy', ['astronomy', 'telescope', 'planet', 'galaxy']),
    topic(2, 'Sourdough baking', ['sourdough', 'starter', 'bread']),
    topic(3, 'Youth football', ['football', 'league']),
  ];
  const labels: LabeledLink[] = [];
  for (let i = 0; i < 64; i++) {
    const word = WORDS[i % WORDS.length];
    const on = i % 12 < 5 || i % 12 === 9;
    const host = HOSTS[i % HOSTS.length];
    labels.push({
      id: i + 1, topicId: 1, crawlId: i % 3 === 0 ? null : 1,
      url: `https://${host}/${on ? 'space' : 'misc'}/${word.replace(/ /g, '-')}-${i}${i % 7 === 0 ? '?utm_source=newsletter&ref=front-page-carousel' : ''}`,
      anchor: i % 11 === 5 ? '' : `${word[0].toUpperCase()}${word.slice(1)} ${on ? 'guide' : 'news'} ${i}`,
      context: `Read more about ${word} in our collection: ${on ? 'observing nights, star charts and the astronomy club' : 'events, opening hours and the members\u2019 pages'}, updated weekly by the library staff.`,
      label: on ? 1 : 0, source: SOURCES[i % SOURCES.length], createdAt: now - (64 - i) * 3_600_000,
      ...(i % 4 === 0 ? { pageUrl: `https://${host}/` } : {}),
    });
  }
  const crawl: CrawlRecord = {
    id: 1, topicId: 1, name: 'Astronomy at the library', config: { ...structuredClone(DEFAULTS), name: 'Astronomy at the library', seeds: ['https://library.example/'], topic: { keywords: topics[0].keywords, id: 1 } } as CrawlRecord['config'],
    state: 'paused', stats: { attempts: 40, fetched: 38, relevant: 20, failed: 2, skipped: 3, queued: 60, trainPages: 0, labels: 64, bytes: 1_200_000 },
    nextSeq: 41, nextOrder: 200, createdAt: now - 7_200_000, updatedAt: now, activeMs: 600_000, message: 'Paused by you.',
  };
  const frontier: FrontierEntry[] = [];
  const anchors = ['Members\u2019 evening', 'Night sky events', 'Star party at the park', 'What\u2019s on this month', 'Book club: science fiction', 'Kids\u2019 science corner', 'Planetarium trip', 'Photography walk'];
  for (let i = 0; i < 60; i++) {
    const url = `https://${HOSTS[i % HOSTS.length]}/events/${anchors[i % anchors.length].toLowerCase().replace(/\W+/g, '-')}-${i}`;
    frontier.push({
      crawlId: 1, url, host: new URL(url).host, state: 'queued', score: 0.5, priority: ((i % 9) - 4) / 4, order: -i, depth: 2,
      parentUrl: 'https://library.example/events/', anchor: `${anchors[i % anchors.length]}${i >= anchors.length ? ` ${i}` : ''}`,
      context: `${anchors[(i + 3) % anchors.length]} · ${anchors[(i + 5) % anchors.length]} · see the calendar for dates, places and booking`,
      attempts: 0, discoveredAt: now, updatedAt: now,
    });
  }
  return { topics, labels, crawls: [crawl], frontier, activeTopicId: 1 };
}

/** Writes the fixture into the 'focus' database from an extension page that has opened it, then reloads. */
export async function seedTopics(page: Page, f: TopicsFixture): Promise<void> {
  await page.evaluate(async (f) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('focus');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const tx = db.transaction(['topics', 'labels', 'crawls', 'frontier', 'settings'], 'readwrite');
    for (const t of f.topics) tx.objectStore('topics').put(t);
    for (const l of f.labels) tx.objectStore('labels').put(l);
    for (const c of f.crawls) tx.objectStore('crawls').put(c);
    for (const e of f.frontier) tx.objectStore('frontier').put(e);
    tx.objectStore('settings').put({ key: 'activeTopic', value: f.activeTopicId });
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, f);
  await page.reload();
}
