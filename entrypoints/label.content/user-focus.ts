// Which element the user focused. A page's script can move focus whenever it likes (`link.focus()` as a key
// goes down, from a timer, on a mouseover), and the focus events that causes are trusted like the user's, so
// neither `isTrusted`, nor `document.activeElement`, nor the last `focusin` says who chose the link.
//
// Focus counts as the user's only when it lands where the user's own gesture sends it:
// - after their Tab (or Shift+Tab) keydown has been dispatched: sequential navigation is the keydown's default
//   action, so a focus that lands while the keydown is still being dispatched was moved by a page listener;
// - on the element their pointer pressed (a click focuses the focusable element under it).
// Chromium also says whether a focus event came from an input device (`sourceCapabilities` is null when a
// script moved focus); where the browser tells, that must agree too.
//
// A key then labels the focused link only if the key event's own target, fixed when the key went down and
// before any page listener could move focus, is the element the user focused.
import { trusted } from './trusted';

export class UserFocus {
  /** The element the user's own gesture focused last. */
  private chosen: Element | null = null;
  /** Whether it has focus now (it loses it to the page, to another element, or when the window loses focus). */
  private holds = false;
  /** The user's Tab keydown, until the focus it moves lands. */
  private tab: KeyboardEvent | null = null;
  /** Where the user's pointer pressed (the composed path), until the focus it moves lands. */
  private pressed: EventTarget[] | null = null;

  constructor(signal: AbortSignal, private readonly changed: () => void) {
    const opts = { capture: true, passive: true, signal };
    window.addEventListener('keydown', trusted((e: KeyboardEvent) => {
      this.pressed = null;
      this.tab = e.key === 'Tab' && !e.ctrlKey && !e.metaKey && !e.altKey ? e : null;
      // A Tab that moves focus nowhere in the page (out to the browser) leaves no gesture open for later.
      if (this.tab) setTimeout(() => {
        if (this.tab === e) this.tab = null;
      });
    }), opts);
    window.addEventListener('pointerdown', trusted((e: PointerEvent) => {
      this.tab = null;
      this.chosen = null;
      const path = e.composedPath();
      this.pressed = path;
      setTimeout(() => {
        if (this.pressed === path) this.pressed = null;
      });
      this.changed();
    }), opts);
    document.addEventListener('focusin', trusted((e: FocusEvent) => this.focusIn(e)), opts);
    document.addEventListener('focusout', trusted(() => {
      this.holds = false;
      this.changed();
    }), opts);
  }

  /** The element the user focused, while it has focus. */
  get current(): Element | null {
    return this.holds ? this.chosen : null;
  }

  /**
   * The element a key event points at through focus: its own target, when that is the element the user
   * focused. Never the element focused now, which a page listener may have moved during this very dispatch.
   */
  targetOf(key: KeyboardEvent): Element | null {
    const target = key.composedPath()[0] ?? key.target;
    return target instanceof Element && target === this.chosen ? target : null;
  }

  private focusIn(e: FocusEvent): void {
    const target = e.composedPath()[0] ?? e.target;
    if (!(target instanceof Element)) return;
    const afterTab = this.tab !== null && this.tab.eventPhase === Event.NONE;
    if (afterTab) this.tab = null; // the first focus after the Tab's dispatch is where the Tab landed
    const pressed = this.pressed?.includes(target) ?? false;
    if (pressed) this.pressed = null;
    if ((afterTab || pressed) && fromInputDevice(e)) {
      this.chosen = target;
      this.holds = true;
    } else {
      // Focus the page moved: it counts only if it came back to the element the user chose (switching
      // windows and back, a page's blur and focus again of that same link).
      this.holds = target === this.chosen;
    }
    this.changed();
  }
}

/** False when the browser says no input device caused the event (Chromium's `UIEvent.sourceCapabilities`). */
function fromInputDevice(e: UIEvent): boolean {
  return !('sourceCapabilities' in e) || (e as UIEvent & { sourceCapabilities: unknown }).sourceCapabilities !== null;
}
