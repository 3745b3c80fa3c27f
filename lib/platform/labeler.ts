// The on-page labeler's browser side: injecting the label content script into a tab and switching it on or
// off, from the popup (the `setLabeler` message), a keyboard shortcut or the context menu.
import { browser } from 'wxt/browser';
import type { ProtocolMap, Request } from '../app/protocol';

export interface LabelerHandlers {
  setLabeler: (req: Request<'setLabeler'>) => Promise<ReturnType<ProtocolMap['setLabeler']>>;
}

/**
 * What the service worker tells the label content script of a tab (`browser.tabs.sendMessage`; the content
 * script answers with a LabelerState). Apart from ProtocolMap because it travels the other way: worker to tab.
 */
export interface LabelerCommand {
  focusLabeler: 'on' | 'off' | 'toggle' | 'state';
}
export interface LabelerState {
  on: boolean;
}

/** The built content script (WXT writes entrypoints/label.content/ there). */
export const LABEL_SCRIPT = '/content-scripts/label.js';
/** The manifest `commands` entry of the shortcut (wxt.config.ts). */
export const TOGGLE_COMMAND = 'toggle-labeler';
const MENU_ID = 'focus-label-links';

/** Registers the shortcut and context-menu triggers; returns the `setLabeler` handler. */
export function setupLabeler(): LabelerHandlers {
  const switcher = new TabSwitcher();
  const toggleIn = (tabId: number | undefined) => {
    if (tabId === undefined || tabId < 0) return;
    switcher.run(tabId, 'toggle').catch((err: unknown) => console.warn(`[focus] labeler: ${errorText(err)}`));
  };

  // MV3: menus outlive the worker, so they are made on install and update (and again at browser start, for
  // Firefox's event pages); the listeners are added synchronously on every start so a click or a shortcut
  // can wake the worker.
  const makeMenu = () => void createMenu().catch((err: unknown) => console.warn(`[focus] context menu: ${errorText(err)}`));
  browser.runtime.onInstalled.addListener(makeMenu);
  browser.runtime.onStartup.addListener(makeMenu);
  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === MENU_ID) toggleIn(tab?.id);
  });
  browser.commands.onCommand.addListener((command, tab) => {
    if (command !== TOGGLE_COMMAND) return;
    if (tab?.id !== undefined) return toggleIn(tab.id);
    void browser.tabs.query({ active: true, currentWindow: true }).then(([active]) => toggleIn(active?.id));
  });

  return {
    setLabeler: async ({ tabId, on }) => {
      if (!Number.isInteger(tabId) || tabId < 0) throw new Error(`there is no tab ${String(tabId)}`);
      return switcher.run(tabId, on ? 'on' : 'off');
    },
  };
}

async function createMenu(): Promise<void> {
  await browser.contextMenus.removeAll();
  browser.contextMenus.create({
    id: MENU_ID,
    title: 'Label links with Focus',
    contexts: ['page', 'link'],
    documentUrlPatterns: ['http://*/*', 'https://*/*', 'file:///*'],
  });
}

/** Switches the labeler per tab, one request at a time, so two quick toggles cannot inject it twice. */
class TabSwitcher {
  private readonly queues = new Map<number, Promise<unknown>>();

  run(tabId: number, command: 'on' | 'off' | 'toggle'): Promise<LabelerState> {
    const previous = this.queues.get(tabId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => switchLabeler(tabId, command));
    this.queues.set(tabId, next);
    void next.catch(() => undefined).finally(() => {
      if (this.queues.get(tabId) === next) this.queues.delete(tabId);
    });
    return next;
  }
}

/** Tells a running labeler the command; injects the content script first when the tab has none. */
async function switchLabeler(tabId: number, command: 'on' | 'off' | 'toggle'): Promise<LabelerState> {
  const running = await tell(tabId, command);
  if (running) return running;
  if (command === 'off') return { on: false }; // nothing injected: nothing to switch off
  try {
    await browser.scripting.executeScript({ target: { tabId }, files: [LABEL_SCRIPT] });
  } catch (err) {
    throw new Error(`Focus cannot label links on this page (${errorText(err)})`);
  }
  const started = await tell(tabId, 'on');
  if (!started) throw new Error('the labeler did not start in this tab');
  return started;
}

/** The labeler's answer, or null when the tab has no labeler to receive it (not injected yet). */
async function tell(tabId: number, command: LabelerCommand['focusLabeler']): Promise<LabelerState | null> {
  let reply: unknown;
  try {
    reply = await browser.tabs.sendMessage(tabId, { focusLabeler: command } satisfies LabelerCommand);
  } catch {
    return null; // "Receiving end does not exist"
  }
  const on = (reply as Partial<LabelerState> | undefined)?.on;
  return typeof on === 'boolean' ? { on } : null;
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
