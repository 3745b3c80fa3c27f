// The labeler's UI: one closed shadow root hung from <html>, fixed at the viewport's corner and taking no
// space, so the page's CSS cannot reach it, its CSS cannot reach the page, and page scripts cannot read the
// scores. Badges sit beside their links' text, never over any link's text (./badge-place.ts); the link whose
// badge is pointed at (or that is pointed at) is outlined. Nothing is put into the page.
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { createShadowRootUi } from 'wxt/utils/content-script-ui/shadow-root';
import { fill, h } from '@/lib/platform/dom';
import type { LabelValue, Topic } from '@/lib/records/types.ts';
import { placeBadges, textAround, textBoxes, type BadgeSpot, type Box, type LinkMark } from './link-marks';
import { formatScore, labelGlyph, labelName, scoreColour } from './score-style';
import { trusted } from './trusted';
import css from './style.css?inline';

/** The element name of the shadow host (the one node the labeler adds to the page). */
export const HOST_NAME = 'focus-labeler';

/** Keys that label the link under the pointer or in focus. */
export const LABEL_KEYS: Readonly<Record<string, LabelValue | null>> = { '1': 1, '2': 0, '0': null };

export interface OverlayEvents {
  label(mark: LinkMark, label: LabelValue | null): void;
  /** A label key pressed in the bar (on its topic select, say): it labels the link pointed at, if any. */
  labelPointed(label: LabelValue | null): void;
  chooseTopic(topicId: number): void;
  close(): void;
  /** The badge under the pointer changed (keys then label its link). */
  hover(mark: LinkMark | null): void;
}

export interface Counts {
  links: number;
  on: number;
  off: number;
}

const CARD_HIDE_MS = 220;

export class Overlay {
  private readonly badges = new Map<LinkMark, HTMLButtonElement>();
  private readonly markOf = new WeakMap<Element, LinkMark>();
  private readonly spots = new Map<LinkMark, string>();
  /** Each shown link's text boxes at the last layout, to outline the current link without reading layout again. */
  private readonly boxes = new Map<LinkMark, Box[]>();
  private current: LinkMark | null = null;
  /** Badge widths by text, at the zoom (device pixels per CSS pixel) `widthsAt`. */
  private readonly widths = new Map<string, number>();
  private widthsAt = 0;
  private cardMark: LinkMark | null = null;
  private hideTimer = 0;

  private constructor(
    readonly host: HTMLElement,
    private readonly ui: { remove(): void },
    private readonly layer: HTMLElement,
    private readonly outline: HTMLElement,
    private readonly card: HTMLElement,
    private readonly toolbar: Toolbar,
    private readonly events: OverlayEvents,
  ) {}

  static async create(ctx: ContentScriptContext, events: OverlayEvents): Promise<Overlay> {
    let parts: { layer: HTMLElement; outline: HTMLElement; card: HTMLElement; toolbar: Toolbar } | undefined;
    const ui = await createShadowRootUi(ctx, {
      name: HOST_NAME,
      mode: 'closed',
      css,
      position: 'inline',
      anchor: document.documentElement,
      append: 'last',
      // Keys and clicks in the labeler's UI are not the page's business (its shortcuts, its outside-click handlers).
      isolateEvents: ['keydown', 'keyup', 'keypress', 'click', 'dblclick', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'contextmenu', 'input', 'change'],
      onMount(container) {
        container.className = 'root';
        const layer = h('div', { class: 'layer' });
        const outline = h('div', { class: 'outline', 'aria-hidden': 'true' });
        const card = h('div', { class: 'card', role: 'tooltip', hidden: true });
        const toolbar = new Toolbar(events);
        container.append(outline, layer, card, toolbar.el);
        parts = { layer, outline, card, toolbar };
      },
    });
    ui.mount();
    const overlay = new Overlay(ui.shadowHost, ui, parts!.layer, parts!.outline, parts!.card, parts!.toolbar, events);
    overlay.listen(ui.shadow);
    return overlay;
  }

  /** Removes the host element (and with it every badge and listener of the UI). */
  remove(): void {
    clearTimeout(this.hideTimer);
    this.ui.remove();
    this.badges.clear();
    this.spots.clear();
    this.boxes.clear();
  }

  // Every listener takes the user's input only (./trusted.ts). Page scripts cannot reach into the closed
  // shadow root today; if one ever could, dispatching a click on a card's button must still label nothing.
  private listen(shadow: ShadowRoot): void {
    this.layer.addEventListener('mouseover', trusted((e) => {
      const mark = this.markAt(e.target);
      if (!mark) return;
      this.setCurrent(mark);
      this.events.hover(mark);
      this.showCard(mark);
    }));
    this.layer.addEventListener('mouseout', trusted((e: MouseEvent) => {
      if (this.markAt(e.relatedTarget)) return;
      this.events.hover(null);
      this.hideCardSoon();
    }));
    this.layer.addEventListener('click', trusted((e) => {
      const mark = this.markAt(e.target);
      if (mark) this.showCard(mark);
    }));
    this.layer.addEventListener('focusin', trusted((e) => {
      const mark = this.markAt(e.target);
      if (mark) this.showCard(mark);
    }));
    this.card.addEventListener('mouseenter', trusted(() => {
      clearTimeout(this.hideTimer);
      this.events.hover(this.cardMark);
    }));
    this.card.addEventListener('mouseleave', trusted(() => {
      this.events.hover(null);
      this.hideCardSoon();
    }));
    this.card.addEventListener('click', trusted((e) => {
      const button = (e.target as Element).closest<HTMLButtonElement>('button[data-label]');
      if (!button || !this.cardMark) return;
      const v = button.dataset.label;
      this.events.label(this.cardMark, v === '1' ? 1 : v === '0' ? 0 : null);
    }));
    // Keys on a focused badge or on the card label that link; the page's own key listener never sees them.
    shadow.addEventListener('keydown', trusted((e) => {
      const ke = e as KeyboardEvent;
      if (ke.key === 'Escape') return this.hideCard();
      if (ke.ctrlKey || ke.metaKey || ke.altKey || ke.isComposing || !Object.hasOwn(LABEL_KEYS, ke.key)) return;
      const target = ke.target as Element;
      const label = LABEL_KEYS[ke.key] ?? null;
      // The topic select keeps the focus after a topic is chosen. There 1, 2 and 0 are still the labeler's keys,
      // as the bar's hint says: they label the link pointed at and never pick a topic (a select jumps to the
      // option its key starts); the select keeps its other keys (arrows).
      if (this.toolbar.el.contains(target)) {
        ke.preventDefault();
        return this.events.labelPointed(label);
      }
      const mark = this.markAt(target) ?? (this.card.contains(target) ? this.cardMark : null);
      if (!mark) return;
      ke.preventDefault();
      this.events.label(mark, label);
    }));
  }

  private markAt(target: EventTarget | null): LinkMark | null {
    const badge = target instanceof Element ? target.closest('.badge') : null;
    return badge ? (this.markOf.get(badge) ?? null) : null;
  }

  /** Adds badges for new marks and drops those of marks that are gone. */
  sync(marks: readonly LinkMark[]): void {
    const live = new Set(marks);
    for (const [mark, badge] of this.badges) {
      if (live.has(mark)) continue;
      badge.remove();
      this.badges.delete(mark);
      this.spots.delete(mark);
      this.boxes.delete(mark);
      if (this.cardMark === mark) this.hideCard();
      if (this.current === mark) this.setCurrent(null);
    }
    for (const mark of marks) {
      if (this.badges.has(mark)) continue;
      const badge = h('button', { type: 'button', class: 'badge', tabindex: -1, hidden: true });
      this.markOf.set(badge, mark);
      this.badges.set(mark, badge);
      this.layer.append(badge);
      this.render(mark);
    }
  }

  /** Shows a mark's score and label on its badge (and on the card, when the card shows that link). */
  render(mark: LinkMark): void {
    const badge = this.badges.get(mark);
    if (!badge) return;
    const glyph = labelGlyph(mark.label);
    const text = glyph ? `${glyph} ${formatScore(mark.score)}` : formatScore(mark.score);
    if (badge.textContent !== text) {
      // A score that changes (after a label) glows for a moment; the first score of a link does not.
      if (badge.dataset.score && mark.score !== null && String(mark.score) !== badge.dataset.score) flash(badge);
      badge.textContent = text;
    }
    badge.style.setProperty('--score', scoreColour(mark.score));
    badge.dataset.url = mark.link.url;
    badge.dataset.score = mark.score === null ? '' : String(mark.score);
    badge.dataset.label = mark.label === null ? '' : String(mark.label);
    badge.classList.toggle('pending', mark.pending);
    badge.setAttribute('aria-label', `${formatScore(mark.score)} on topic, ${labelName(mark.label)}: ${mark.link.anchor || mark.link.url}`);
    if (this.cardMark === mark) this.fillCard(mark);
  }

  /**
   * Each mark's badge width, as its text sets it ("✓ >99%" is wider than "5%"): measured once per text and
   * zoom, on hidden copies of a badge added for one read, so badge-place.ts keeps the whole badge in view.
   */
  private badgeWidths(marks: readonly LinkMark[]): number[] {
    if (this.widthsAt !== window.devicePixelRatio) {
      this.widths.clear();
      this.widthsAt = window.devicePixelRatio;
    }
    const texts = marks.map((m) => this.badges.get(m)?.textContent ?? '');
    const unmeasured = [...new Set(texts)].filter((t) => !this.widths.has(t));
    if (unmeasured.length) {
      const rulers = unmeasured.map((t) => h('span', { class: 'badge ruler', 'aria-hidden': 'true' }, t));
      this.layer.append(...rulers);
      rulers.forEach((r, i) => this.widths.set(unmeasured[i]!, Math.ceil(r.getBoundingClientRect().width)));
      for (const r of rulers) r.remove();
    }
    return texts.map((t) => this.widths.get(t)!);
  }

  /** Puts every badge beside its link's text (all reads first, then all writes: one layout per frame). */
  layout(marks: readonly LinkMark[]): void {
    const w = document.documentElement.clientWidth || window.innerWidth;
    const hgt = document.documentElement.clientHeight || window.innerHeight;
    // Only links near the view are measured closely (a page may have thousands): the others get no badge now.
    const near = marks.map((m) => {
      const r = m.element.getBoundingClientRect();
      return r.bottom > -NEAR_VIEW && r.top < hgt + NEAR_VIEW && r.right > -NEAR_VIEW && r.left < w + NEAR_VIEW;
    });
    const widths = this.badgeWidths(marks);
    const boxes = marks.map((m, i) => (near[i] ? textBoxes(m.element) : []));
    const around = textAround(marks.filter((_, i) => near[i]).map((m) => m.element));
    const spots = placeBadges(boxes, widths, w, hgt, around);
    marks.forEach((mark, i) => {
      this.boxes.set(mark, boxes[i]!);
      const badge = this.badges.get(mark);
      if (!badge) return;
      const spot = spots[i];
      const place = spot ? placeOf(spot) : '';
      if (this.spots.get(mark) === place) return;
      this.spots.set(mark, place);
      badge.hidden = !spot;
      if (!spot) return;
      badge.style.translate = `${spot.x}px ${spot.y}px`;
      badge.style.height = badge.style.lineHeight = `${spot.h}px`;
      badge.classList.toggle('short', spot.h < 13);
    });
    if (this.current) this.drawOutline(this.current);
    if (this.cardMark) this.placeCard(this.cardMark);
  }

  /** Marks the badge whose link keys would label now, and outlines that link's text. */
  setCurrent(mark: LinkMark | null): void {
    if (this.current === mark) return;
    if (this.current) this.badges.get(this.current)?.classList.remove('current');
    this.current = mark;
    if (mark) this.badges.get(mark)?.classList.add('current');
    this.drawOutline(mark);
  }

  /** A box in the score's colour around each line of the link's text: which link the badge belongs to. */
  private drawOutline(mark: LinkMark | null): void {
    const boxes = mark && !this.badges.get(mark)?.hidden ? (this.boxes.get(mark) ?? []) : [];
    this.outline.style.setProperty('--score', scoreColour(mark?.score ?? null));
    fill(this.outline, ...boxes.map((b) => {
      const box = h('div', { class: 'line' });
      box.style.translate = `${Math.round(b.left) - 2}px ${Math.round(b.top) - 1}px`;
      box.style.width = `${Math.round(b.right - b.left) + 4}px`;
      box.style.height = `${Math.round(b.bottom - b.top) + 2}px`;
      return box;
    }));
  }

  setTopics(topics: readonly Topic[], activeId: number | undefined): void {
    this.toolbar.setTopics(topics, activeId);
  }

  setCounts(counts: Counts, scoring: boolean): void {
    this.toolbar.setCounts(counts, scoring);
  }

  setError(message: string | null): void {
    this.toolbar.setError(message);
  }

  private showCard(mark: LinkMark): void {
    clearTimeout(this.hideTimer);
    this.cardMark = mark;
    this.fillCard(mark);
    this.card.hidden = false;
    this.placeCard(mark);
  }

  private hideCardSoon(): void {
    clearTimeout(this.hideTimer);
    this.hideTimer = window.setTimeout(() => this.hideCard(), CARD_HIDE_MS);
  }

  private hideCard(): void {
    clearTimeout(this.hideTimer);
    this.card.hidden = true;
    this.cardMark = null;
  }

  private fillCard(mark: LinkMark): void {
    const { link } = mark;
    const button = (label: string, value: string, text: string, key: string, disabled: boolean) =>
      h('button', { type: 'button', class: `act ${value === '1' ? 'on' : value === '0' ? 'off' : 'clear'}`, 'data-label': value, 'aria-label': text, disabled: disabled || mark.pending },
        h('span', null, label), h('kbd', null, key));
    fill(
      this.card,
      h('div', { class: 'anchor' }, link.anchor || '(no anchor text)'),
      h('div', { class: link.context ? 'context' : 'context none' }, link.context || '(no context)'),
      h('div', { class: 'url' }, link.url),
      h('div', { class: 'verdict' },
        h('b', { style: `color:${scoreColour(mark.score)}` }, formatScore(mark.score)),
        ' on topic · ', labelName(mark.label)),
      h('div', { class: 'actions' },
        button('✓ On topic', '1', 'Label on topic', '1', mark.label === 1),
        button('✗ Off topic', '0', 'Label off topic', '2', mark.label === 0),
        button('Clear', '', 'Clear the label', '0', mark.label === null)),
    );
  }

  private placeCard(mark: LinkMark): void {
    const badge = this.badges.get(mark);
    if (!badge || badge.hidden) return this.hideCard();
    const b = badge.getBoundingClientRect();
    const w = document.documentElement.clientWidth || window.innerWidth;
    const hgt = document.documentElement.clientHeight || window.innerHeight;
    const cw = this.card.offsetWidth;
    const ch = this.card.offsetHeight;
    const x = Math.min(Math.max(8, b.left - 12), w - cw - 8);
    const below = b.bottom + 4;
    const y = below + ch <= hgt - 8 ? below : Math.max(8, b.top - ch - 4);
    this.card.style.translate = `${Math.round(x)}px ${Math.round(y)}px`;
  }
}

/** How far outside the view a link is still measured (its text may reach into view, or be in a badge's way). */
const NEAR_VIEW = 200;

const placeOf = (s: BadgeSpot): string => `${s.x},${s.y},${s.h},${s.w}`;

/** A short glow on a badge whose value just changed (the rescored value after a label). */
function flash(badge: HTMLElement): void {
  // The Web Animations API restarts an animation without the forced reflow a CSS class toggle needs.
  badge.animate([{ filter: 'brightness(1.6)' }, { filter: 'none' }], { duration: 700, easing: 'ease-out' });
}

/** The compact bar in the bottom-right corner: topic, counts, errors, off switch. */
class Toolbar {
  readonly el: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly counts: HTMLElement;
  private readonly error: HTMLElement;

  constructor(events: OverlayEvents) {
    this.select = h('select', { class: 'topic', title: 'The topic your labels train', 'aria-label': 'Topic', disabled: true },
      h('option', null, 'Loading topics…'));
    this.select.addEventListener('change', trusted(() => {
      const id = Number(this.select.value);
      if (Number.isInteger(id)) events.chooseTopic(id);
    }));
    this.counts = h('span', { class: 'counts', 'aria-live': 'polite' });
    this.error = h('div', { class: 'error', role: 'alert', hidden: true });
    this.el = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Focus link labeler' },
      h('div', { class: 'row' },
        h('span', { class: 'brand', title: 'Focus: label the links of this page for your topic' }, 'Focus'),
        this.select,
        this.counts,
        h('button', { type: 'button', class: 'close', title: 'Switch the labeler off', 'aria-label': 'Switch the labeler off', onclick: trusted(() => events.close()) }, '×')),
      h('div', { class: 'hint' }, 'Point at a link and press ', h('kbd', null, '1'), ' on topic, ', h('kbd', null, '2'), ' off topic, ', h('kbd', null, '0'), ' clear'),
      this.error);
  }

  setTopics(topics: readonly Topic[], activeId: number | undefined): void {
    fill(this.select, ...topics.map((t) => h('option', { value: t.id ?? '', selected: t.id === activeId }, t.name)));
    if (activeId !== undefined) this.select.value = String(activeId);
    this.select.disabled = topics.length === 0;
  }

  setCounts({ links, on, off }: Counts, scoring: boolean): void {
    const parts = [`${links} ${links === 1 ? 'link' : 'links'}`];
    if (on) parts.push(`${on} ✓`);
    if (off) parts.push(`${off} ✗`);
    if (scoring) parts.push('scoring…');
    this.counts.textContent = parts.join(' · ');
    this.counts.title = `${links} links on this page; ${on} labeled on topic, ${off} off topic`;
  }

  setError(message: string | null): void {
    this.error.hidden = !message;
    this.error.textContent = message ?? '';
  }
}
