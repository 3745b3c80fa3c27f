// The on-page labeler's browser side: injecting the label content script into a tab and switching it on or
// off, from the popup (the `setLabeler` message), a keyboard shortcut or the context menu.
import type { ProtocolMap, Request } from '../protocol';

export interface LabelerHandlers {
  setLabeler: (req: Request<'setLabeler'>) => Promise<ReturnType<ProtocolMap['setLabeler']>>;
}

/** Registers the shortcut and context-menu triggers; returns the `setLabeler` handler. */
export function setupLabeler(): LabelerHandlers {
  return {
    setLabeler: async () => {
      throw new Error('the labeler is not available yet');
    },
  };
}
