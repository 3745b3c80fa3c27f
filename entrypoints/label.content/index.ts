// The on-page labeler. Registered at runtime only: the worker injects it into a tab when the popup, the
// shortcut or the context menu switches it on (lib/platform/labeler.ts), then tells it on or off by message.
import { browser } from 'wxt/browser';
import type { LabelerCommand, LabelerState } from '@/lib/platform/labeler';
import { PageLabeler } from './page-labeler';

const COMMANDS = new Set<unknown>(['on', 'off', 'toggle', 'state']);

const isCommand = (m: unknown): m is LabelerCommand => COMMANDS.has((m as Partial<LabelerCommand> | null)?.focusLabeler);

export default defineContentScript({
  registration: 'runtime',
  // The "script started" notice goes by a DOM event only, not by a postMessage the page would receive.
  noScriptStartedPostMessage: true,
  main(ctx) {
    // Injected again into a tab that has it (a race of two switches, an updated extension), the newer script
    // invalidates this one through WXT's context, and this one takes its UI away.
    const labeler = new PageLabeler(ctx);
    const onMessage = (message: unknown): Promise<LabelerState> | undefined =>
      isCommand(message) ? labeler.command(message.focusLabeler) : undefined;
    browser.runtime.onMessage.addListener(onMessage);
    ctx.onInvalidated(() => {
      labeler.off();
      try {
        browser.runtime.onMessage.removeListener(onMessage);
      } catch {
        // The extension is gone; so is its listener.
      }
    });
  },
});
