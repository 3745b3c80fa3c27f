// Page objects for the extension's popup and dashboard: what a user reads and clicks, by data-testid.
import type { BrowserContext, Locator, Page } from 'playwright-core';

/**
 * A new tab on the dashboard (`query`: `crawl=3`, `view=topics&topic=1`), at a desktop size; `errors` collects
 * the page's uncaught errors, which a test expects to stay empty.
 */
export async function openDashboard(
  context: BrowserContext, extensionId: string, query = '', size = { width: 1280, height: 900 },
): Promise<{ dash: Page; errors: string[] }> {
  const dash = await context.newPage();
  await dash.setViewportSize(size);
  const errors: string[] = [];
  dash.on('pageerror', (e) => errors.push(e.message));
  await dash.goto(`chrome-extension://${extensionId}/dashboard.html${query ? `?${query}` : ''}`);
  return { dash, errors };
}

/**
 * The headline figures shown inside `root` (a crawl list card, a popup card, the detail's tiles), by id: the text of
 * each visible element marked `data-figure`.
 */
export function shownFigures(root: Locator): Promise<Record<string, string>> {
  return root.locator('[data-figure]').evaluateAll((els) => Object.fromEntries(els
    .filter((el) => !el.closest('[hidden]'))
    .map((el) => [(el as HTMLElement).dataset.figure!, (el.textContent ?? '').trim()])));
}

/** The popup; its numbers are read from one crawl's card: the first (the newest running crawl) unless `crawl(id)`. */
export class PopupPage {
  constructor(readonly page: Page, private readonly extensionId: string, private readonly crawlId?: number) {}

  /** `query`: `tab=7` (the tab "Crawl this site" is about), `crawl=3`. */
  async open(query = ''): Promise<this> {
    await this.page.goto(`chrome-extension://${this.extensionId}/popup.html${query ? `?${query}` : ''}`);
    return this;
  }

  /** The same popup, reading the card of crawl `id`. */
  crawl(id: number): PopupPage {
    return new PopupPage(this.page, this.extensionId, id);
  }

  /** The crawls the popup shows, in its order: [id, name, state]. */
  async crawls(): Promise<{ id: number; name: string; state: string }[]> {
    const cards = this.page.getByTestId('popup-crawl');
    const out = [];
    for (const card of await cards.all()) {
      out.push({ id: Number(await card.getAttribute('data-crawl-id')), name: await card.getByTestId('crawl-name').innerText(), state: (await card.getByTestId('state').textContent()) ?? '' });
    }
    return out;
  }

  card(): Locator {
    const cards = this.page.getByTestId('popup-crawl');
    return this.crawlId === undefined ? cards.first() : cards.and(this.page.locator(`[data-crawl-id="${this.crawlId}"]`));
  }

  private text(id: string): Promise<string> {
    return this.card().getByTestId(id).innerText();
  }

  async number(id: 'fetched' | 'relevant' | 'frontier' | 'failed' | 'ppm'): Promise<number> {
    return Number((await this.text(id)).replace(/[^\d.]/g, ''));
  }

  harvest = () => this.text('harvest');
  state = () => this.text('state');
  inFlight = () => this.card().getByTestId('inflight').locator('li').allInnerTexts();

  async press(button: 'pause' | 'resume' | 'stop'): Promise<void> {
    await this.card().getByTestId(button).click();
  }

  async waitFor(predicate: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!(await predicate())) {
      if (Date.now() > end) throw new Error('popup never showed the expected state');
      await this.page.waitForTimeout(100);
    }
  }
}

export class DashboardPage {
  constructor(readonly page: Page, private readonly extensionId: string) {}

  async open(): Promise<this> {
    await this.page.goto(`chrome-extension://${this.extensionId}/dashboard.html`);
    return this;
  }

  async startCrawl(f: { name: string; seeds: string; keywords: string; maxPages: number; delayMs: number; identify?: boolean; sitemaps?: boolean }): Promise<void> {
    const p = this.page;
    await p.getByTestId('form-name').fill(f.name);
    await p.getByTestId('form-seeds').fill(f.seeds);
    await p.getByTestId('form-keywords').fill(f.keywords);
    await p.getByTestId('form-max-pages').fill(String(f.maxPages));
    await p.getByTestId('form-delay').fill(String(f.delayMs));
    if (f.identify !== undefined) await p.getByTestId('form-identify').setChecked(f.identify);
    if (f.sitemaps !== undefined) await p.getByTestId('form-sitemaps').setChecked(f.sitemaps);
    await p.getByTestId('start').click();
  }

  formError = () => this.page.getByTestId('form-error').innerText();

  /** The refusal shown beside a field of the New crawl form (its notes, one a line), and whether the field is marked. */
  async fieldError(testid: string): Promise<{ text: string; marked: boolean }> {
    const field = this.page.getByTestId(testid);
    const ids = (await field.getAttribute('aria-describedby'))?.split(' ').filter(Boolean) ?? [];
    const texts = await Promise.all(ids.map((id) => this.page.locator(`[id="${id}"]`).innerText()));
    return { text: texts.join('\n'), marked: (await field.getAttribute('aria-invalid')) === 'true' };
  }

  topicChoices = () => this.page.locator('select[name=topicId] option').allInnerTexts();
}
