// A fetched page's label (on topic, off topic, none) in the Pages table: three buttons that ask the worker to
// label the page, and a note saying how many links to it became labeled links.
import { sendMessage } from '@/lib/platform/messaging';
import type { LabelValue, PageLabel } from '@/lib/records/types.ts';
import { errorText, h } from '@/lib/platform/dom';
import { formatCount } from '@/lib/ui/format';

export const PAGE_LABEL_HELP =
  "Label a fetched page on or off topic. A page label trains the topic's page judge (which decides what counts as relevant), and every known link to the page becomes a labeled link that trains the link classifier.";

/** What labeling a page did, in a few words. */
function labeledText(label: LabelValue | null, links: number): string {
  if (label === null) return 'Label cleared';
  if (links === 0) return 'Labeled; no known links to it';
  return `${formatCount(links)} link${links === 1 ? '' : 's'} labeled`;
}

/** How long "N links labeled" stays after labeling a page. */
const NOTE_MS = 5000;

/**
 * A page's label (on topic, off topic, none) as three buttons, the one in force pressed; pressing one sends
 * `labelPage` and says how many links to the page became labeled links.
 */
export class PageLabelCell {
  readonly td: HTMLTableCellElement;
  private readonly on: HTMLButtonElement;
  private readonly off: HTMLButtonElement;
  private readonly clear: HTMLButtonElement;
  private readonly note: HTMLElement;
  private label: PageLabel | undefined;
  private busy = false;
  private noteTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly crawlId: number, private readonly seq: number) {
    const button = (text: string, testid: string, title: string, label: LabelValue | null) =>
      h('button', { type: 'button', class: `small label-button ${testid}`, 'data-testid': testid, title, onclick: () => this.send(label) }, text);
    this.on = button('On', 'page-on', `On topic. ${PAGE_LABEL_HELP}`, 1);
    this.off = button('Off', 'page-off', `Off topic. ${PAGE_LABEL_HELP}`, 0);
    this.clear = button('×', 'page-clear', 'Clear the label: its labeled links are removed too.', null);
    this.note = h('span', { class: 'label-note', 'data-testid': 'page-label-note', role: 'status' });
    this.td = h(
      'td',
      { class: 'page-label', title: PAGE_LABEL_HELP },
      h('span', { class: 'label-buttons', role: 'group', 'aria-label': 'Page label' }, this.on, this.off, this.clear),
      this.note,
    );
    this.show(undefined);
  }

  /** Shows the page's stored label. */
  show(label: PageLabel | undefined): void {
    this.label = label;
    const value = label?.label;
    this.td.dataset.label = value === 1 ? 'on' : value === 0 ? 'off' : 'none';
    this.on.setAttribute('aria-pressed', String(value === 1));
    this.off.setAttribute('aria-pressed', String(value === 0));
    this.on.disabled = this.off.disabled = this.busy;
    this.clear.disabled = this.busy || !label;
    this.td.title = label?.source === 'auto' ? `Labeled by a training read (the URL patterns). ${PAGE_LABEL_HELP}` : PAGE_LABEL_HELP;
  }

  private send(label: LabelValue | null): void {
    if (this.busy || (label !== null && this.label?.label === label && this.label.source === 'user')) return;
    this.busy = true;
    this.show(this.label);
    this.say('…', false);
    sendMessage('labelPage', { crawlId: this.crawlId, seq: this.seq, label })
      .then(
        ({ links }) => this.say(labeledText(label, links), false),
        (err: unknown) => this.say(errorText(err), true),
      )
      .finally(() => {
        this.busy = false;
        this.show(this.label);
      });
  }

  private say(text: string, error: boolean): void {
    clearTimeout(this.noteTimer);
    this.note.textContent = text;
    this.note.classList.toggle('error-text', error);
    if (text !== '…') this.noteTimer = setTimeout(() => (this.note.textContent = ''), error ? 3 * NOTE_MS : NOTE_MS);
  }
}
