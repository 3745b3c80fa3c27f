// The EventTarget every linkedom node extends, put in place of linkedom's own when the extension is built
// (scripts/build/linkedom-events.ts). linkedom's makes each node's listener map as the node is made: a Map and a
// WeakMap entry for every element, text node and attribute of a parsed page, which was 40% of parsing a page in
// Node and a share of the worker's garbage collection. The crawler adds no listener to a parsed page; here a node
// gets its map with its first listener, and otherwise behaves as linkedom's (its events, phases and `_path`).

type Listener = ((event: LinkedomEvent) => void) | { handleEvent(event: LinkedomEvent): void };

/** The fields of linkedom's Event that dispatching reads and writes. */
interface LinkedomEvent {
  bubbles: boolean;
  cancelBubble: boolean;
  defaultPrevented: boolean;
  eventPhase: number;
  readonly NONE: number;
  readonly CAPTURING_PHASE: number;
  readonly AT_TARGET: number;
  readonly BUBBLING_PHASE: number;
  currentTarget?: unknown;
  target?: unknown;
  _path: { currentTarget: DOMEventTarget; target: DOMEventTarget }[];
  _stopImmediatePropagationFlag: boolean;
}

const listenersOf = new WeakMap<DOMEventTarget, Map<string, Map<Listener, unknown>>>();

/** Calls one listener; true when it stopped the event's immediate propagation. */
function call(event: LinkedomEvent, listener: Listener): boolean {
  if (typeof listener === 'function') listener.call(event.target, event);
  else listener.handleEvent(event);
  return event._stopImmediatePropagationFlag;
}

/** The listeners of one node on the event's path; true when the event's propagation was stopped there. */
function invoke(this: LinkedomEvent, { currentTarget, target }: { currentTarget: DOMEventTarget; target: DOMEventTarget }): boolean | undefined {
  const listeners = listenersOf.get(currentTarget)?.get(eventType(this));
  if (!listeners) return undefined;
  this.eventPhase = currentTarget === target ? this.AT_TARGET : this.BUBBLING_PHASE;
  this.currentTarget = currentTarget;
  this.target = target;
  for (const [listener, options] of listeners) {
    if ((options as { once?: boolean } | undefined)?.once) listeners.delete(listener);
    if (call(this, listener)) break;
  }
  delete this.currentTarget;
  delete this.target;
  return this.cancelBubble;
}

const eventType = (event: LinkedomEvent): string => (event as unknown as { type: string }).type;

class DOMEventTarget {
  /** @protected The node an event bubbles to next (linkedom's nodes override it). */
  _getParent(): DOMEventTarget | null {
    return null;
  }

  addEventListener(type: string, listener: Listener, options?: unknown): void {
    let byType = listenersOf.get(this);
    if (!byType) listenersOf.set(this, (byType = new Map()));
    let listeners = byType.get(type);
    if (!listeners) byType.set(type, (listeners = new Map()));
    listeners.set(listener, options);
  }

  removeEventListener(type: string, listener: Listener): void {
    const byType = listenersOf.get(this);
    const listeners = byType?.get(type);
    if (listeners?.delete(listener) && listeners.size === 0) byType!.delete(type);
  }

  dispatchEvent(event: LinkedomEvent): boolean {
    event.eventPhase = event.CAPTURING_PHASE;
    // As linkedom: the path is the node and, for an event that bubbles, its ancestors.
    for (let node: DOMEventTarget | null = this; node; node = event.bubbles ? node._getParent() : null) {
      event._path.push({ currentTarget: node, target: this });
    }
    event._path.some(invoke, event);
    event._path = [];
    event.eventPhase = event.NONE;
    return !event.defaultPrevented;
  }
}

export { DOMEventTarget as EventTarget };
