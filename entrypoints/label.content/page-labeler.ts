// One switched-on labeler on the page: reads the links, asks the worker for their scores, draws the badges,
// follows the page as it scrolls and changes, and labels links on a click or a key. Everything it adds (the
// host element, listeners, observers, timers) goes when it is switched off.
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { sendMessage } from '@/lib/platform/messaging';
import type { LabelerCommand, LabelerState } from '@/lib/platform/labeler';
import type { LabelValue, Topic } from '@/lib/records/types.ts';
import { linkElementOf, readPageLinks, reconcileMarks, toScore, type LinkMark } from './link-marks';
import { LABEL_KEYS, Overlay } from './overlay';
import { trusted } from './trusted';
import { UserFocus } from './user-focus';

/** scoreLinks takes at most this many links per request. */
const SCORE_BATCH = 500;
/** New links are looked for this long after the page last changed... */
const RESCAN_QUIET_MS = 250;
/** ...but at least this often while it keeps changing. */
const RESCAN_MAX_WAIT_MS = 1500;
/** Labels in quick succession are followed by one rescoring. */
const RESCORE_DELAY_MS = 150;

/** The labeler of this tab: on or off. */
export class PageLabeler {
  private session: Session | null = null;

  constructor(private readonly ctx: ContentScriptContext) {}

  async command(command: LabelerCommand['focusLabeler']): Promise<LabelerState> {
    if (command === 'on' || (command === 'toggle' && !this.session)) await this.on();
    else if (command === 'off' || command === 'toggle') this.off();
    return { on: this.session !== null };
  }

  private async on(): Promise<void> {
    if (this.session) return;
    const session = new Session(this.ctx, () => this.off());
    this.session = session;
    try {
      await session.start();
    } catch (err) {
      this.off();
      throw err;
    }
  }

  off(): void {
    this.session?.stop();
    this.session = null;
  }
}

class Session {
  private overlay: Overlay | null = null;
  private stopped = false;
  private marks: LinkMark[] = [];
  private topic: Topic | null = null;
  /** Scores and labels by feature key under the current topic and model; emptied when either changes. */
  private readonly known = new Map<string, { score: number; label: LabelValue | null }>();
  /** Bumped when the topic or its model changes: answers to older score requests are dropped. */
  private generation = 0;
  private scoring = 0;
  private readonly listeners = new AbortController();
  private mutations: MutationObserver | null = null;
  private resizes: ResizeObserver | null = null;
  private frame = 0;
  private rescanTimer = 0;
  private rescanFirstAt = 0;
  private rescoreTimer = 0;
  private hovered: LinkMark | null = null;
  private badgeHovered: LinkMark | null = null;
  private focus: UserFocus | null = null;
  private readonly byElement = new Map<Element, LinkMark>();

  constructor(
    private readonly ctx: ContentScriptContext,
    private readonly close: () => void,
  ) {}

  async start(): Promise<void> {
    const overlay = await Overlay.create(this.ctx, {
      label: (mark, label) => void this.label(mark, label),
      // Focus is in the bar: no link has it, so only the pointer says which link the key labels.
      labelPointed: (label) => {
        const mark = this.badgeHovered ?? this.hovered;
        if (mark) void this.label(mark, label);
      },
      chooseTopic: (topicId) => void this.chooseTopic(topicId),
      close: this.close,
      hover: (mark) => {
        this.badgeHovered = mark;
        this.showCurrent();
      },
    });
    if (this.stopped) return overlay.remove();
    this.overlay = overlay;
    this.listen();
    this.rescan();
    // The switch answers once the badges are up; scores follow when the worker has them.
    void this.loadTopic().then(() => {
      if (this.topic && !this.stopped) void this.scoreMarks(this.marks);
    });
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.listeners.abort();
    this.mutations?.disconnect();
    this.resizes?.disconnect();
    cancelAnimationFrame(this.frame);
    clearTimeout(this.rescanTimer);
    clearTimeout(this.rescoreTimer);
    this.overlay?.remove();
    this.overlay = null;
    this.marks = [];
    this.byElement.clear();
  }

  // ---- following the page ----

  private listen(): void {
    const opts = { capture: true, passive: true, signal: this.listeners.signal };
    const relayout = () => this.scheduleLayout();
    // Scroll events do not bubble; a capturing listener on the document hears every scrolling element's.
    document.addEventListener('scroll', relayout, opts);
    window.addEventListener('resize', relayout, opts);
    document.addEventListener('load', relayout, opts); // images and fonts that load move links
    document.addEventListener('transitionend', relayout, opts);
    // What is pointed at or focused decides which link a key labels: only the user's own input may move it.
    // The pointer is followed through its own events only; focus counts only where the user put it (./user-focus.ts).
    document.addEventListener('mouseover', trusted((e) => this.pointAt(e.target)), opts);
    document.addEventListener('mouseout', trusted((e: MouseEvent) => {
      if (!e.relatedTarget) this.pointAt(null);
    }), opts);
    this.focus = new UserFocus(this.listeners.signal, () => this.showCurrent());
    window.addEventListener('keydown', trusted((e) => this.onKey(e)), { capture: true, signal: this.listeners.signal });

    const host = this.overlay!.host;
    this.mutations = new MutationObserver((records) => {
      let linksMayHaveChanged = false;
      for (const r of records) {
        if (r.target === host) continue;
        if (r.type === 'childList') {
          if (isOnly(r.addedNodes, host) && isOnly(r.removedNodes, host)) continue;
          linksMayHaveChanged = true;
        } else if (r.type === 'attributes' && (r.attributeName === 'href' || r.attributeName === 'rel')) {
          linksMayHaveChanged = true;
        }
      }
      this.scheduleLayout();
      if (linksMayHaveChanged) this.rescanSoon();
    });
    this.mutations.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
    this.resizes = new ResizeObserver(relayout);
    this.resizes.observe(document.documentElement);
    if (document.body) this.resizes.observe(document.body);
  }

  private scheduleLayout(): void {
    if (this.frame || this.stopped) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.overlay?.layout(this.marks);
    });
  }

  private rescanSoon(): void {
    const now = performance.now();
    if (!this.rescanTimer) this.rescanFirstAt = now;
    clearTimeout(this.rescanTimer);
    const wait = Math.max(0, Math.min(RESCAN_QUIET_MS, this.rescanFirstAt + RESCAN_MAX_WAIT_MS - now));
    this.rescanTimer = window.setTimeout(() => {
      this.rescanTimer = 0;
      this.rescan();
    }, wait);
  }

  /** Reads the page's links again; new ones get badges (and scores), gone ones lose theirs. */
  private rescan(): void {
    if (this.stopped || !this.overlay) return;
    const { marks, added } = reconcileMarks(this.marks, readPageLinks(document));
    this.marks = marks;
    this.byElement.clear();
    for (const m of marks) this.byElement.set(m.element, m);
    for (const m of added) {
      const k = this.known.get(m.key);
      if (k) Object.assign(m, k);
    }
    this.overlay.sync(marks);
    this.scheduleLayout();
    this.showCounts();
    const unscored = added.filter((m) => m.score === null);
    if (this.topic && unscored.length) void this.scoreMarks(unscored);
  }

  private markOf(target: EventTarget | null): LinkMark | null {
    const el = linkElementOf(target);
    return el ? (this.byElement.get(el) ?? null) : null;
  }

  private pointAt(target: EventTarget | null): void {
    this.hovered = this.markOf(target);
    this.showCurrent();
  }

  /** Outlines the link a key would label now: the badge or link under the pointer, else the link the user focused. */
  private showCurrent(): void {
    this.overlay?.setCurrent(this.badgeHovered ?? this.hovered ?? this.markOf(this.focus?.current ?? null));
  }

  private onKey(e: KeyboardEvent): void {
    if (!Object.hasOwn(LABEL_KEYS, e.key) || e.ctrlKey || e.metaKey || e.altKey || e.isComposing || e.defaultPrevented) return;
    // Keys typed into the labeler's own UI are handled there; keys typed into the page's fields are the page's.
    if (e.target === this.overlay?.host || isEditable(e.composedPath()[0] ?? e.target)) return;
    // The link under the pointer, else the key's own target if the user focused it; never a focus the page moved.
    const mark = this.badgeHovered ?? this.hovered ?? this.markOf(this.focus?.targetOf(e) ?? null);
    if (!mark) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    void this.label(mark, LABEL_KEYS[e.key] ?? null);
  }

  // ---- talking to the worker ----

  private async loadTopic(): Promise<void> {
    try {
      this.topic = await sendMessage('activeTopic', {});
      const topics = await sendMessage('listTopics', {});
      if (this.stopped) return;
      this.overlay?.setTopics(topics, this.topic.id);
      this.overlay?.setError(null);
    } catch (err) {
      this.fail('Could not read your topics', err);
    }
  }

  private async chooseTopic(topicId: number): Promise<void> {
    try {
      this.topic = await sendMessage('activeTopic', { topicId });
      this.overlay?.setError(null);
    } catch (err) {
      return this.fail('Could not switch the topic', err);
    }
    this.rescoreAll();
  }

  /** Asks for the marks' scores (and labels) under the active topic, in batches the worker accepts. */
  private async scoreMarks(marks: readonly LinkMark[]): Promise<void> {
    const generation = this.generation;
    this.scoring++;
    this.showCounts();
    try {
      for (let i = 0; i < marks.length; i += SCORE_BATCH) {
        const batch = marks.slice(i, i + SCORE_BATCH);
        const reply = await sendMessage('scoreLinks', { topicId: this.topic?.id, links: batch.map(toScore) });
        if (this.stopped || generation !== this.generation) return;
        batch.forEach((mark, j) => {
          const score = reply.scores[j] ?? null;
          if (score === null) return;
          mark.score = score;
          if (!mark.pending) mark.label = reply.labels[j] ?? null;
          this.known.set(mark.key, { score, label: mark.label });
          this.overlay?.render(mark);
        });
        this.scheduleLayout(); // a badge's width follows its text
      }
      this.overlay?.setError(null);
    } catch (err) {
      this.fail('Could not score the links', err);
    } finally {
      this.scoring--;
      this.showCounts();
    }
  }

  /** The model changed (a label, another topic): every link is scored again, older answers dropped. */
  private rescoreAll(): void {
    this.generation++;
    this.known.clear();
    void this.scoreMarks(this.marks);
  }

  private async label(mark: LinkMark, label: LabelValue | null): Promise<void> {
    const topicId = this.topic?.id;
    if (topicId === undefined) return this.fail('Could not label the link', new Error('no topic is active'));
    // One label per URL: every link to it on the page shows it.
    const same = this.marks.filter((m) => m.link.url === mark.link.url);
    const before = same.map((m) => m.label);
    for (const m of same) {
      m.label = label;
      m.pending = true;
      this.overlay?.render(m);
    }
    this.scheduleLayout(); // a labeled badge shows ✓ or ✗ too, and is wider
    this.showCounts();
    const { url, anchor, context } = mark.link;
    let saved = false;
    try {
      await sendMessage('labelLink', { topicId, url, anchor, context, label, pageUrl: document.URL });
      saved = true;
      this.overlay?.setError(null);
    } catch (err) {
      same.forEach((m, i) => (m.label = before[i] ?? null));
      this.fail('Could not save the label', err);
    } finally {
      for (const m of same) {
        m.pending = false;
        this.overlay?.render(m);
      }
      this.scheduleLayout();
      this.showCounts();
    }
    if (!saved || this.stopped) return;
    clearTimeout(this.rescoreTimer);
    this.rescoreTimer = window.setTimeout(() => this.rescoreAll(), RESCORE_DELAY_MS);
  }

  private showCounts(): void {
    let on = 0;
    let off = 0;
    for (const m of this.marks) {
      if (m.label === 1) on++;
      else if (m.label === 0) off++;
    }
    this.overlay?.setCounts({ links: this.marks.length, on, off }, this.scoring > 0);
  }

  private fail(what: string, err: unknown): void {
    if (this.stopped) return;
    // The extension was reloaded or updated: this script can no longer reach it, and goes.
    if (this.ctx.isInvalid) return this.close();
    const reason = err instanceof Error ? err.message : String(err);
    this.overlay?.setError(`${what}: ${reason.replace(/\.$/, '')}.`);
  }
}

function isOnly(nodes: NodeList, node: Node): boolean {
  return nodes.length === 0 || (nodes.length === 1 && nodes[0] === node);
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}
