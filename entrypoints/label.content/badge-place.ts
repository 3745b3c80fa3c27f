// Where each link's badge goes so that it covers no link's text (its own, the next one's) and no other badge,
// and still reads as its link's: just after the end of the link's last line, vertically inside that line; else
// in the margin before its first line; else in the gap above or below it; else a little further along its
// last line, past what is in the way. The text around a link (its paragraph's) is avoided too where a place
// is free of it, and covered rather than a link's text where none is. A badge that fits nowhere is not shown (the link is still labeled by
// pointing at it and pressing a key). Pure geometry in viewport coordinates, so it is tested without a browser.

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A badge's place and size (viewport coordinates). */
export interface BadgeSpot {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Space between a link's text and its badge. */
const GAP = 3;
/** Tallest and shortest a badge gets: never taller than the line it sits in, down to this. */
export const BADGE_MAX_H = 14;
export const BADGE_MIN_H = 10;
/** How far along the last line a badge may move past other text before it no longer reads as its link's. */
const MAX_SLIDE = 160;
/** Grid rows of the obstacle index, in pixels. */
const ROW = 24;

const hits = (a: Box, b: Box): boolean => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

/** Boxes indexed by the grid rows they span, to find what a candidate badge would cover without a scan. */
class Obstacles {
  private readonly rows = new Map<number, Box[]>();

  add(b: Box): void {
    for (let r = Math.floor(b.top / ROW); r <= Math.floor(b.bottom / ROW); r++) {
      const row = this.rows.get(r);
      if (row) row.push(b);
      else this.rows.set(r, [b]);
    }
  }

  /** The boxes a candidate covers. */
  covered(c: Box): Box[] {
    const found: Box[] = [];
    for (let r = Math.floor(c.top / ROW); r <= Math.floor(c.bottom / ROW); r++) for (const b of this.rows.get(r) ?? []) if (hits(b, c) && !found.includes(b)) found.push(b);
    return found;
  }
}

/** The line box the badge goes after (last line, rightmost) and before (first line, leftmost). */
function ends(boxes: readonly Box[]): { first: Box; last: Box } {
  let first = boxes[0]!;
  let last = boxes[0]!;
  for (const b of boxes) {
    if (b.top < first.top - 1 || (Math.abs(b.top - first.top) <= 1 && b.left < first.left)) first = b;
    if (b.bottom > last.bottom + 1 || (Math.abs(b.bottom - last.bottom) <= 1 && b.right > last.right)) last = b;
  }
  return { first, last };
}

/**
 * Places one badge per link, in the order given (document order: earlier links choose first). `widths[i]` is
 * the badge's width; a link with no boxes, or whose badge fits nowhere in view, gets null.
 */
export function placeBadges(
  links: readonly (readonly Box[])[],
  widths: readonly number[],
  viewW: number,
  viewH: number,
  around: readonly Box[] = [],
): (BadgeSpot | null)[] {
  const near = (b: Box) => b.bottom > -ROW && b.top < viewH + ROW && b.right > -ROW && b.left < viewW + ROW;
  const links_ = new Obstacles();
  const prose = new Obstacles();
  for (const boxes of links) for (const b of boxes) if (near(b)) links_.add(b);
  for (const b of around) if (near(b)) prose.add(b);
  const free = (c: Box) => links_.covered(c).length === 0 && prose.covered(c).length === 0;
  const freeOfLinks = (c: Box) => links_.covered(c).length === 0;
  return links.map((boxes, i) => {
    const visible = boxes.filter((b) => b.bottom > 0 && b.top < viewH && b.right > 0 && b.left < viewW);
    if (visible.length === 0) return null;
    const line = ends(visible);
    const spot = place(line, widths[i]!, viewW, viewH, free) ?? place(line, widths[i]!, viewW, viewH, freeOfLinks) ?? slide(line.last, widths[i]!, viewW, links_);
    // A placed badge is in the way of later ones, as a link's text is.
    if (spot) links_.add({ left: spot.x, top: spot.y, right: spot.x + spot.w, bottom: spot.y + spot.h });
    return spot;
  });
}

/**
 * A badge's height and top in a line: centred, and 4 px shorter than the line's text box, because a text box
 * is taller than a tight line (13 px text on 14 px lines) and overlaps its neighbours' by a pixel or two.
 */
function inLine(line: Box): { h: number; y: number } {
  const h = Math.max(BADGE_MIN_H, Math.min(BADGE_MAX_H, Math.floor(line.bottom - line.top) - 4));
  return { h, y: line.top + (line.bottom - line.top - h) / 2 };
}

const spotAt = (x: number, y: number, w: number, h: number): BadgeSpot => ({ x: Math.round(x), y: Math.round(y), w, h });

/** The first of the places beside the link that is in view and free (as `free` judges). */
function place({ first, last }: { first: Box; last: Box }, w: number, viewW: number, viewH: number, free: (c: Box) => boolean): BadgeSpot | null {
  const end = inLine(last);
  const start = inLine(first);
  const h = end.h;
  const tries: [number, number, number][] = [
    [last.right + GAP, end.y, end.h],
    [first.left - GAP - w, start.y, start.h],
    [first.right - w, first.top - h - 1, h],
    [last.right - w, last.bottom + 1, h],
  ];
  for (const [x, y, hh] of tries) {
    if (x < 0 || y < 0 || x + w > viewW || y + hh > viewH) continue;
    if (free({ left: x, top: y, right: x + w, bottom: y + hh })) return spotAt(x, y, w, hh);
  }
  return null;
}

/** Along the last line, past the link text in the way, while the badge still reads as this link's. */
function slide(last: Box, w: number, viewW: number, links: Obstacles): BadgeSpot | null {
  const { h, y } = inLine(last);
  let x = last.right + GAP;
  for (let step = 0; step < 6 && x - last.right <= MAX_SLIDE; step++) {
    const covered = links.covered({ left: x, top: y, right: x + w, bottom: y + h });
    if (covered.length === 0) return x + w <= viewW ? spotAt(x, y, w, h) : null;
    x = Math.max(...covered.map((b) => b.right)) + GAP;
  }
  return null;
}
