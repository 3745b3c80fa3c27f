// Small pieces the parts of the Topics view share: notices, file names, the ?topic=ID of the address.
import type { ImportReport } from '@/lib/app/protocol.ts';
import { formatCount } from '@/lib/ui/format';

/** Shows a sentence in a notice element, or hides it for null. */
export function showNotice(el: HTMLElement, message: string | null): void {
  el.hidden = !message;
  el.textContent = message ?? '';
}

/** A topic name as part of a file name: without the characters file systems refuse. */
export const fileStem = (name: string, fallback = 'topic'): string =>
  name.replace(/[\\/:*?"<>|\x00-\x1f]+/g, '-').trim() || fallback;

/** The `?topic=ID` of the page's URL, if it is a positive integer. */
export function topicIdFromUrl(search = location.search): number | undefined {
  const id = Number(new URLSearchParams(search).get('topic'));
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/** Runs `work` with the button disabled, so a second click cannot send the request twice. */
export async function busy<T>(button: HTMLButtonElement, work: () => Promise<T>): Promise<T> {
  button.disabled = true;
  try {
    return await work();
  } finally {
    button.disabled = false;
  }
}

/** "rejected 3 (line 2: ...; line 5: ...; …)": how many lines an import skipped and why the first ones. */
export function rejectedText({ rejected, rejectedCount }: ImportReport, what = 'line'): string {
  const reasons = rejected.slice(0, 3).map((r) => `${what} ${r.line}: ${r.error}`).join('; ');
  const more = rejectedCount > 3 ? '; …' : '';
  return `rejected ${formatCount(rejectedCount)}${reasons ? ` (${reasons}${more})` : ''}`;
}
