// How a score and a label look on a badge: the colour runs from red (0) through grey (0.5) to green (1).
import type { LabelValue } from '@/lib/records/types.ts';

const GREY = [107, 114, 128] as const;
const RED = [190, 38, 45] as const;
const GREEN = [21, 128, 61] as const;

/** The badge colour of P(on topic | link); grey for a link not scored yet. */
export function scoreColour(score: number | null): string {
  if (score === null || !Number.isFinite(score)) return `rgb(${GREY.join(',')})`;
  const s = Math.min(1, Math.max(0, score));
  const end = s >= 0.5 ? GREEN : RED;
  const t = Math.abs(s - 0.5) * 2;
  const mix = GREY.map((g, i) => Math.round(g + (end[i]! - g) * t));
  return `rgb(${mix.join(',')})`;
}

/** "83%"; "<1%" and ">99%" rather than a rounded 0% or 100% the classifier never means. */
export function formatScore(score: number | null): string {
  if (score === null || !Number.isFinite(score)) return '…';
  const pct = score * 100;
  if (pct > 0 && pct < 1) return '<1%';
  if (pct < 100 && pct > 99) return '>99%';
  return `${Math.round(pct)}%`;
}

export const labelGlyph = (label: LabelValue | null): string => (label === 1 ? '✓' : label === 0 ? '✗' : '');

export const labelName = (label: LabelValue | null): string =>
  label === 1 ? 'labeled on topic' : label === 0 ? 'labeled off topic' : 'not labeled';
