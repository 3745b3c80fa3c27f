// How the Pages table shows what `fetch.render` did to a page: a short tag, and a title that says why.
import type { GrowthStop, RenderNote } from '../records/types';

/** What stopped a page growing, as the title says it. */
const STOPPED: Record<GrowthStop, string> = {
  end: 'It was read to its end: a last step added nothing.',
  steps: 'It stopped growing at the cap on steps (scrolls, "load more" presses).',
  time: 'It stopped growing at the time cap.',
  links: 'It stopped growing at the cap on links.',
};

export function renderTag(note: RenderNote | undefined): { text: string; title: string } | null {
  if (!note) return null;
  const blocked = note.blocked ? ` ${note.blocked} request${note.blocked === 1 ? '' : 's'} of the page stopped by the guard (listed as kept from requesting).` : '';
  if (!note.rendered) {
    const text = note.error ? 'render failed' : 'not rendered';
    return { text, title: `Read from its HTML: ${note.error ? `rendering failed (${note.error}); rendered because ` : ''}${note.why}.${blocked}` };
  }
  const settled = note.settled === false ? ' It was still busy at the time limit: what it showed then was read.' : '';
  const changed = note.changed ? ` ${note.changed[0]!.toUpperCase()}${note.changed.slice(1)}.` : ' Rendering changed nothing.';
  const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
  const grew = [
    note.scrolled ? ` It grew when scrolled to its end, ${times(note.scrolled)}.` : '',
    note.pressed ? ` It grew when its "load more" was pressed, ${times(note.pressed)}.` : '',
    note.stopped ? ` ${STOPPED[note.stopped]}` : '',
  ].join('');
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const p = note.phases;
  const split = p ? ` (loading ${s(p.load)}, settling ${s(p.settle)}${p.grow ? `, growing ${s(p.grow)}` : ''}, reading ${s(p.read)})` : '';
  const took = note.ms === undefined ? '' : ` ${s(note.ms)}${split}.`;
  return { text: note.settled === false ? 'rendered, unsettled' : 'rendered', title: `Rendered in a background tab: ${note.why}.${changed}${grew}${settled}${blocked}${took}` };
}
