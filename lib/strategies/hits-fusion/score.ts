// Design C.3: LinkScore(i) = A·(SimPage(P) + B·SimAnchor(i)) + C·(α·Auth(i) + β·Hub(i)), A + B + C = 1, β < α.
// Before enough pages exist for HITS to mean anything, the text part alone (design C.1).

export interface FusionWeights {
  /** A: weight of the text part. */
  textWeight: number;
  /** B: weight of the anchor's similarity inside the text part. */
  anchorWeight: number;
  /** C: weight of the link part. */
  linkWeight: number;
  /** α: authority's share of the link part. */
  authority: number;
  /** β: hub's share of the link part (β < α: authorities are preferred). */
  hub: number;
}

/** Why these weights break the design's rules, in one sentence, or null. */
export function weightsProblem(w: FusionWeights): string | null {
  const sum = w.textWeight + w.anchorWeight + w.linkWeight;
  if (Math.abs(sum - 1) > 1e-9) return `strategy.textWeight + anchorWeight + linkWeight (A + B + C) must be 1 (got ${Number(sum.toFixed(6))})`;
  if (!(w.hub < w.authority)) return `strategy.hub (β) must be below strategy.authority (α): authorities are preferred over hubs (got β ${w.hub}, α ${w.authority})`;
  return null;
}

/** The fused score; `link` absent: before HITS has run, the text part alone (scaled by A, as in the formula). */
export function linkScore(w: FusionWeights, text: { page: number; anchor: number }, link?: { auth: number; hub: number }): number {
  const textPart = w.textWeight * (text.page + w.anchorWeight * text.anchor);
  return link ? textPart + w.linkWeight * (w.authority * link.auth + w.hub * link.hub) : textPart;
}
