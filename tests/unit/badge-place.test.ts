// Where the labeler puts a link's badge: never over any link's text or another badge, beside its own link.
import { describe, expect, it } from 'vitest';
import { placeBadges, type BadgeSpot, type Box } from '../../entrypoints/label.content/badge-place';

const overlaps = (a: Box, b: Box) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
const boxOf = (s: BadgeSpot): Box => ({ left: s.x, top: s.y, right: s.x + s.w, bottom: s.y + s.h });

function coversNothing(links: Box[][], spots: (BadgeSpot | null)[]): void {
  const placed = spots.filter((s): s is BadgeSpot => s !== null).map(boxOf);
  for (const b of placed) for (const text of links.flat()) expect(overlaps(b, text)).toBe(false);
  placed.forEach((a, i) => placed.forEach((b, j) => i !== j && expect(overlaps(a, b)).toBe(false)));
}

describe('badge placement', () => {
  it('puts each badge of a dense list (14 px lines, text boxes taller than the line) at the end of its own line', () => {
    // Text boxes 16 px tall on 14 px lines: neighbours' boxes overlap by 2 px, as Chromium's do for 13 px text.
    const links = Array.from({ length: 60 }, (_, i) => [{ left: 40, top: 10 + i * 14 - 1, right: 40 + 60 + ((i * 37) % 300), bottom: 10 + i * 14 + 15 }]);
    const spots = placeBadges(links, links.map(() => 30), 1100, 1000);
    expect(spots.every((s) => s !== null)).toBe(true);
    coversNothing(links, spots);
    spots.forEach((s, i) => {
      const text = links[i]![0]!;
      expect(s!.x - text.right).toBeGreaterThanOrEqual(0);
      expect(s!.x - text.right).toBeLessThanOrEqual(170);
      // Vertically within its own line box.
      expect(s!.y).toBeGreaterThanOrEqual(text.top);
      expect(s!.y + s!.h).toBeLessThanOrEqual(text.bottom);
    });
    // Most sit right after their text; those whose next line is longer slide past nothing but stay on their line.
    expect(spots.filter((s, i) => s!.x - links[i]![0]!.right <= 4).length).toBeGreaterThan(40);
  });

  it('puts badges of a row of close links above them, and hides one that fits nowhere rather than cover text', () => {
    const row = ['Home', 'Astronomy', 'Kitchen', 'Sports'].map((_, i) => [{ left: 10 + i * 90, top: 30, right: 10 + i * 90 + 80, bottom: 50 }]);
    const spots = placeBadges(row, row.map(() => 30), 800, 600);
    coversNothing(row, spots);
    // The first three have no room after them: above their text. The last has: after its end.
    expect(spots.slice(0, 3).every((s) => s !== null && s.y + s.h <= 30)).toBe(true);
    expect(spots[3]).toMatchObject({ x: 363 });
    // A link boxed in on every side by other links' text.
    const boxed = [[{ left: 100, top: 100, right: 140, bottom: 114 }], [{ left: 0, top: 80, right: 800, bottom: 100 }], [{ left: 0, top: 114, right: 800, bottom: 134 }], [{ left: 0, top: 100, right: 99, bottom: 114 }], [{ left: 141, top: 100, right: 800, bottom: 114 }]];
    const spots2 = placeBadges(boxed, boxed.map(() => 30), 800, 600);
    expect(spots2[0]).toBeNull();
    coversNothing(boxed, spots2);
  });

  it('prefers a place free of the paragraph’s text, and takes one free of links when there is none', () => {
    const link = [{ left: 100, top: 100, right: 200, bottom: 116 }];
    const paragraph = [{ left: 0, top: 100, right: 600, bottom: 116 }, { left: 0, top: 124, right: 600, bottom: 140 }];
    const [inProse] = placeBadges([link], [30], 800, 600, paragraph);
    expect(inProse!.y + inProse!.h).toBeLessThanOrEqual(100); // above: the line before the paragraph is empty
    const crowded = [{ left: 0, top: 76, right: 600, bottom: 92 }, ...paragraph];
    const [covering] = placeBadges([link], [30], 800, 600, crowded);
    expect(covering).toMatchObject({ x: 203 }); // after the link, over prose rather than nowhere
  });
});
