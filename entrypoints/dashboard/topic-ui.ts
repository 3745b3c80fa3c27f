// Small pieces the parts of the Topics view share: notices, file names, the ?topic=ID of the address.

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
