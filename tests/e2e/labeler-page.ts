// The on-page labeler's test page (a page with its own aggressive CSS) and a page object that reads the
// labeler's UI. The UI lives in a closed shadow root, which page scripts and Playwright's selectors cannot
// enter; the DevTools protocol can (DOM.getDocument with pierce), as DevTools' own Elements panel does.
import { createServer } from 'node:http';
import type { CDPSession, Page } from 'playwright-core';
import { listenOnLoopback } from '../fixtures/sites/loopback';
import type { LabeledLink } from '../../lib/records/types';

/** A page with CSS that would move or restyle anything added carelessly to it. */
export const NIGHT_SKY_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Night sky notes</title>
<style>
  * { position: relative !important; font-size: 20px; margin: 0; padding: 0; transition: all 0.5s; }
  html, body { background: #fffdf6; color: #222; }
  body { padding: 24px 32px; font-family: Georgia, 'DejaVu Serif', serif; line-height: 1.6; }
  div, span, button, section, aside { display: block !important; border: 3px dashed #f0c !important; padding: 4px !important; }
  nav { margin-bottom: 12px; }
  nav a { margin-right: 18px; }
  a { color: #6b21a8; }
  h1 { font-size: 30px; margin-bottom: 10px; }
  p { max-width: 720px; margin-bottom: 10px; }
  .spacer { height: 1600px; border: 0 !important; }
</style>
</head>
<body>
<nav><a href="/">Home</a><a href="/astronomy/">Astronomy</a><a href="/kitchen/">Kitchen</a><a href="/sports/">Sports</a></nav>
<h1>Night sky notes</h1>
<p>Tonight the best view is of <a href="/astronomy/saturn-rings">Saturn rings through a small telescope</a>, low in the south after ten, with Jupiter rising later.</p>
<p>If clouds roll in, try our <a href="/kitchen/lentil-soup">lentil soup recipe with smoked paprika</a> and stay warm indoors by the fire.</p>
<p>Members can read about the <a href="/astronomy/galaxy-survey">galaxy survey of the northern sky</a> in the reading room of the library.</p>
<p>The village <a href="/sports/football-results">football results for the weekend</a> are posted at the hall every Monday morning.</p>
<p>Write to us at <a href="mailto:club@example.org">the club address</a>, or see the <a href="/astronomy/planet-guide"><img src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==" width="60" height="24" alt="Planet guide"></a> for beginners.</p>
<div class="spacer"></div>
</body>
</html>`;

export const ALIKE_ANCHOR = 'Saturn rings through a small telescope';

const DENSE_WORDS = ['Saturn', 'rings', 'tonight', 'comet', 'telescope', 'eyepiece', 'nebula', 'lentil', 'soup', 'football', 'galaxy', 'survey', 'moon', 'phase'];

/** A dense list: 60 links of different lengths, one per 14 px line, and a line of tags close together. */
export const DENSE_LIST_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Observing log index</title>
<style>
  body { margin: 8px 16px; font: 13px/14px system-ui, 'DejaVu Sans', sans-serif; color: #222; }
  h1 { font-size: 15px; line-height: 18px; margin: 0 0 4px; }
  ul { margin: 0; padding: 0 0 0 18px; }
  li { line-height: 14px; }
  a { color: #1d4ed8; }
  .tags a { margin-right: 6px; }
</style>
</head>
<body>
<h1>Observing log index</h1>
<p class="tags">Tags: <a href="/tag/moon">moon</a><a href="/tag/planets">planets</a><a href="/tag/deep-sky">deep sky</a><a href="/tag/kit">kit</a></p>
<ul>
${Array.from({ length: 60 }, (_, i) => `<li><a href="/log/${i}">${Array.from({ length: 1 + ((i * 7) % 9) }, (_, j) => DENSE_WORDS[(i + j * 3) % DENSE_WORDS.length]).join(' ')} ${i}</a></li>`).join('\n')}
</ul>
</body>
</html>`;

/** Links the ringed-planets topic is sure of, at the view's right edge and at its bottom. */
export const EDGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Ringed planets</title>
<style>
  body { margin: 0; font: 16px/20px system-ui, 'DejaVu Sans', sans-serif; color: #222; }
  p { margin: 0; padding: 2px 0; }
  .right { text-align: right; }
  .low { position: absolute; top: 676px; left: 8px; }
</style>
</head>
<body>
<p class="right"><a href="/rings/edge">saturn rings telescope planet moons saturn rings telescope planet moons</a></p>
<p>See <a href="/rings/close">saturn rings telescope planet moons saturn rings telescope planet moons</a> tonight.</p>
<p class="low"><a href="/rings/low">saturn rings telescope planet moons saturn rings telescope planet moons</a></p>
</body>
</html>`;

/** Serves NIGHT_SKY_HTML at /notes, DENSE_LIST_HTML at /dense and EDGE_HTML at /edge (any query) on 127.0.0.1, and a blank page for every other path. */
export async function startNightSkySite(): Promise<{ origin: string; url: string; denseUrl: string; edgeUrl: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    res.end(path === '/notes' ? NIGHT_SKY_HTML : path === '/dense' ? DENSE_LIST_HTML : path === '/edge' ? EDGE_HTML : '<!doctype html><title>other</title><p>other page</p>');
  });
  const site = await listenOnLoopback(server);
  return { ...site, url: `${site.origin}/notes`, denseUrl: `${site.origin}/dense`, edgeUrl: `${site.origin}/edge` };
}

export interface BadgeView {
  url: string;
  text: string;
  score: number | null;
  label: '1' | '0' | '';
  pending: boolean;
  hidden: boolean;
  /** Centre, viewport coordinates. */
  x: number;
  y: number;
  /** The badge's box, viewport coordinates. */
  box: { left: number; top: number; right: number; bottom: number };
}

interface DomNode {
  backendNodeId: number;
  localName?: string;
  children?: DomNode[];
  shadowRoots?: DomNode[];
  contentDocument?: DomNode;
}

/** What the labeler shows on a page, read through its closed shadow root. */
export class LabelerView {
  private constructor(
    readonly page: Page,
    private readonly cdp: CDPSession,
  ) {}

  static async attach(page: Page): Promise<LabelerView> {
    return new LabelerView(page, await page.context().newCDPSession(page));
  }

  /** The shadow roots of every `<focus-labeler>` host in the page. */
  private async shadowRoots(): Promise<number[]> {
    const { root } = (await this.cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: DomNode };
    const found: number[] = [];
    const visit = (n: DomNode) => {
      if (n.localName === 'focus-labeler') for (const s of n.shadowRoots ?? []) found.push(s.backendNodeId);
      for (const c of n.children ?? []) visit(c);
    };
    visit(root);
    return found;
  }

  /** How many labeler hosts the page has (0 when off, never more than 1). */
  async hosts(): Promise<number> {
    return (await this.shadowRoots()).length;
  }

  /** Runs `fn` in the page with the labeler's shadow root as `this`; null when the labeler is off. */
  private async inShadow<T>(fn: string): Promise<T | null> {
    const [shadow] = await this.shadowRoots();
    if (shadow === undefined) return null;
    const { object } = await this.cdp.send('DOM.resolveNode', { backendNodeId: shadow });
    const { result, exceptionDetails } = await this.cdp.send('Runtime.callFunctionOn', {
      objectId: object.objectId!,
      functionDeclaration: fn,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(`in the labeler's shadow root: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value as T;
  }

  async badges(): Promise<BadgeView[]> {
    return (
      (await this.inShadow<BadgeView[]>(`function () {
        return [...this.querySelectorAll('.badge')].map((b) => {
          const r = b.getBoundingClientRect();
          return {
            url: b.dataset.url, text: b.textContent, score: b.dataset.score === '' ? null : Number(b.dataset.score),
            label: b.dataset.label, pending: b.classList.contains('pending'), hidden: b.hidden,
            x: r.left + r.width / 2, y: r.top + r.height / 2,
            box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
          };
        });
      }`)) ?? []
    );
  }

  async badge(url: string): Promise<BadgeView> {
    const b = (await this.badges()).find((v) => v.url === url);
    if (!b) throw new Error(`no badge for ${url}`);
    return b;
  }

  /** The boxes the labeler draws around the current link's text (one per line), viewport coordinates. */
  async outlineBoxes(): Promise<{ left: number; top: number; right: number; bottom: number }[]> {
    return (
      (await this.inShadow<{ left: number; top: number; right: number; bottom: number }[]>(`function () {
        return [...this.querySelectorAll('.outline .line')].map((b) => {
          const r = b.getBoundingClientRect();
          return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
        });
      }`)) ?? []
    );
  }

  /** The toolbar's text (counts, error) or null when the labeler is off. */
  toolbarText(): Promise<string | null> {
    return this.inShadow<string>(`function () { return this.querySelector('.toolbar')?.innerText ?? ''; }`);
  }

  errorText(): Promise<string | null> {
    return this.inShadow<string>(`function () { const e = this.querySelector('.toolbar .error'); return e && !e.hidden ? e.textContent : ''; }`);
  }

  /** Centre of an element of the UI (viewport coordinates), or null when it is not showing. */
  private async centre(selector: string): Promise<{ x: number; y: number } | null> {
    return this.inShadow<{ x: number; y: number } | null>(`function () {
      const el = this.querySelector(${JSON.stringify(selector)});
      if (!el || el.closest('[hidden]')) return null;
      const r = el.getBoundingClientRect();
      return r.width && r.height ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : null;
    }`);
  }

  /** Points at a link's badge (its card opens), then clicks the card's button: a real mouse, hit-tested. */
  async labelWithCard(url: string, label: 'on' | 'off' | 'clear'): Promise<void> {
    const b = await this.badge(url);
    await this.page.mouse.move(b.x, b.y);
    const value = label === 'on' ? '1' : label === 'off' ? '0' : '';
    const button = await this.waitFor(() => this.centre(`.card button[data-label="${value}"]`));
    await this.page.mouse.move(button.x, button.y, { steps: 4 });
    await this.page.mouse.click(button.x, button.y);
  }

  /** The topic the bar's select shows. */
  selectedTopic(): Promise<string | null> {
    return this.inShadow<string>(`function () { const s = this.querySelector('.toolbar select'); return s.selectedOptions[0]?.textContent ?? ''; }`);
  }

  /** Whether the focus is on the bar's select (inside the closed shadow root, where the page cannot see it). */
  selectHasFocus(): Promise<boolean | null> {
    return this.inShadow<boolean>(`function () { return this.activeElement === this.querySelector('.toolbar select'); }`);
  }

  /** Each shown badge's text width against its own (a text wider than its badge is clipped), by link URL. */
  async badgeFits(): Promise<{ url: string; text: string; scrollWidth: number; clientWidth: number }[]> {
    return (
      (await this.inShadow<{ url: string; text: string; scrollWidth: number; clientWidth: number }[]>(`function () {
        return [...this.querySelectorAll('.badge')].filter((b) => !b.hidden).map((b) => ({ url: b.dataset.url, text: b.textContent, scrollWidth: b.scrollWidth, clientWidth: b.clientWidth }));
      }`)) ?? []
    );
  }

  /**
   * Chooses a topic in the bar as a user does: a real click opens the select, the keyboard moves to the topic
   * in its list and Enter picks it (Playwright cannot point into a select's list). The select keeps the focus.
   */
  async chooseTopic(name: string): Promise<void> {
    const select = await this.waitFor(() => this.centre('.toolbar select'));
    const names = await this.inShadow<string[]>(`function () { return [...this.querySelectorAll('.toolbar select option')].map((o) => o.textContent); }`);
    const from = names!.indexOf((await this.selectedTopic())!);
    const to = names!.indexOf(name);
    if (to < 0) throw new Error(`no topic ${name} in the bar`);
    await this.page.mouse.click(select.x, select.y);
    for (let i = from; i !== to; i += Math.sign(to - from)) await this.page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
    await this.page.keyboard.press('Enter');
  }

  async clickClose(): Promise<void> {
    const close = await this.waitFor(() => this.centre('.toolbar .close'));
    await this.page.mouse.click(close.x, close.y);
  }

  private async waitFor<T>(read: () => Promise<T | null>, timeoutMs = 5000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await read();
      if (v !== null) return v;
      if (Date.now() > end) throw new Error('the labeler never showed it');
      await this.page.waitForTimeout(50);
    }
  }
}

/** Rectangles of the page's own elements, to prove the labeler moves none of them. */
export function pageBoxes(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('body, nav, h1, p, a, img, li, .spacer')].map((el) => {
      const r = el.getBoundingClientRect();
      return `${el.localName} ${r.x},${r.y} ${r.width}x${r.height}`;
    }),
  );
}

/** The user labels in the extension's labels table, read from an extension page as the dashboard reads them. */
export async function userLabels(extensionPage: Page): Promise<LabeledLink[]> {
  const rows = (await extensionPage.evaluate(
    () =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('focus');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction('labels').objectStore('labels').getAll();
          all.onsuccess = () => (db.close(), resolve(all.result));
          all.onerror = () => reject(all.error);
        };
      }),
  )) as LabeledLink[];
  return rows.filter((r) => r.source === 'user');
}

/** The boxes of every link's text on the page (Range.getClientRects of its contents), by link href. */
export function linkTextBoxes(page: Page): Promise<{ href: string; boxes: { left: number; top: number; right: number; bottom: number }[] }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('a[href]')].map((a) => {
      const range = document.createRange();
      range.selectNodeContents(a);
      const boxes = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map((r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom }));
      return { href: (a as HTMLAnchorElement).href, boxes };
    }),
  );
}
