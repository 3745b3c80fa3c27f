// The extension's build gives linkedom's nodes lib/parse/event-target.ts as their EventTarget (its listener maps made
// at the first listener, not with every node): events must reach the same listeners, in the same order, as with
// linkedom's own.
import { Event, EventTarget as LinkedomTarget } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { EventTarget as LazyTarget } from '../../lib/parse/event-target';

/** What the script below asks of an EventTarget (linkedom's types want every optional argument). */
interface Target {
  addEventListener(type: string, listener: unknown, options?: unknown): void;
  removeEventListener(type: string, listener: unknown): void;
  dispatchEvent(event: Event): boolean;
}
type TargetClass = new () => Target;

/** A chain of three targets (leaf -> middle -> root) of one class, as nodes and their parents. */
function chain(Base: TargetClass) {
  class Node extends Base {
    constructor(readonly name: string, readonly parent: Node | null) {
      super();
    }
    _getParent() {
      return this.parent;
    }
  }
  const root = new Node('root', null);
  const middle = new Node('middle', root);
  return { root, middle, leaf: new Node('leaf', middle) };
}

/** One script of adding, removing and dispatching, and what the listeners saw. */
function script(Base: TargetClass): string[] {
  const seen: string[] = [];
  const { root, middle, leaf } = chain(Base);
  const note = (who: string) => (e: Event & { eventPhase: number }) => seen.push(`${who}:${e.type}:${e.eventPhase}:${(e.target as unknown as { name: string }).name}`);
  const once = note('once');
  const stopper = (e: Event) => {
    seen.push('stopper');
    e.stopImmediatePropagation();
  };
  leaf.addEventListener('ping', note('leaf'));
  leaf.addEventListener('ping', once, { once: true });
  middle.addEventListener('ping', { handleEvent: note('middle-object') });
  root.addEventListener('ping', note('root'));
  root.addEventListener('other', note('root-other'));
  seen.push(`bubbling returns ${leaf.dispatchEvent(new Event('ping', { bubbles: true }))}`);
  seen.push(`again returns ${leaf.dispatchEvent(new Event('ping', { bubbles: true }))}`);
  seen.push(`flat returns ${leaf.dispatchEvent(new Event('ping'))}`);
  middle.addEventListener('ping', stopper);
  middle.addEventListener('ping', note('after-stopper'));
  leaf.dispatchEvent(new Event('ping', { bubbles: true }));
  middle.removeEventListener('ping', stopper);
  root.removeEventListener('other', () => undefined); // never added
  leaf.removeEventListener('nothing', () => undefined); // a type never listened to
  leaf.dispatchEvent(new Event('ping', { bubbles: true }));
  const cancel = new Event('ping', { bubbles: true, cancelable: true });
  root.addEventListener('ping', (e: Event) => e.preventDefault());
  seen.push(`cancelled returns ${leaf.dispatchEvent(cancel)}`);
  root.dispatchEvent(new Event('other'));
  new Base().dispatchEvent(new Event('ping')); // a target no one listens to
  return seen;
}

describe("the extension's EventTarget for linkedom's nodes", () => {
  it('calls the listeners linkedom calls, in its order, phases and return values', () => {
    const lazy = script(LazyTarget as unknown as TargetClass);
    expect(lazy).toEqual(script(LinkedomTarget as unknown as TargetClass));
    expect(lazy.length).toBeGreaterThan(15);
  });

});
