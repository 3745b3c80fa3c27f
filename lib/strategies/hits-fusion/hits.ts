// Design C.2: HITS over the crawled subgraph, nodes the relevant pages and their out-links, edges parent ->
// child. Built to be recomputed often while crawling: nodes are interned to integer ids, edges kept as
// per-node arrays (appending an edge is O(1)), each round packs them once into flat typed arrays (CSR) and
// power-iterates from the previous round's vectors (warm start, ANCHORS "cheap link analysis"), so a round
// after a few new edges converges in a few iterations instead of from scratch.

export interface HitsRound {
  iterations: number;
  /** Largest change of a normalized score in the last iteration. */
  delta: number;
  nodes: number;
  edges: number;
  ms: number;
}

/** A round between two slices: the packed edges it runs over and its vectors so far. */
interface RoundInProgress {
  offsets: Int32Array;
  targets: Int32Array;
  maxIterations: number;
  tolerance: number;
  now: () => number;
  ms: number;
  iterations: number;
  delta: number;
  /** Where the iteration under way stands: which pass, and the next node of it. */
  phase: 'auth' | 'hub';
  at: number;
  hub: Float64Array;
  auth: Float64Array;
  nextAuth: Float64Array;
  nextHub: Float64Array;
}

export class LinkGraph {
  private readonly ids = new Map<string, number>();
  private readonly urls: string[] = [];
  private readonly out: number[][] = [];
  private readonly edgeSet = new Set<string>();
  private edgeCount = 0;
  private hub: Float64Array = new Float64Array(0);
  private auth: Float64Array = new Float64Array(0);
  private maxAuth = 0;
  private maxHub = 0;
  private round: RoundInProgress | null = null;

  get nodes(): number {
    return this.urls.length;
  }

  get edges(): number {
    return this.edgeCount;
  }

  private id(url: string): number {
    let id = this.ids.get(url);
    if (id === undefined) {
      id = this.urls.length;
      this.ids.set(url, id);
      this.urls.push(url);
      this.out.push([]);
    }
    return id;
  }

  /** Adds the edges of a relevant page to its out-links; returns how many were new. */
  addPage(url: string, links: Iterable<string>): number {
    const from = this.id(url);
    let added = 0;
    for (const link of links) {
      if (link === url) continue;
      const to = this.id(link);
      const key = `${from},${to}`;
      if (this.edgeSet.has(key)) continue;
      this.edgeSet.add(key);
      this.out[from]!.push(to);
      added++;
    }
    this.edgeCount += added;
    return added;
  }

  /**
   * One HITS computation, whole: a(p) = sum of h(q) over q -> p; h(p) = sum of a(q) over p -> q; both normalized to
   * unit length each iteration; stops when no score moves more than `tolerance`, or after `maxIterations`. Starts
   * from the previous vectors (new nodes start at the mean), so repeated rounds are cheap.
   */
  compute(maxIterations = 50, tolerance = 1e-6, now: () => number = () => Date.now()): HitsRound {
    this.startRound(maxIterations, tolerance, now);
    return this.advance(Infinity)!;
  }

  /** Whether a round was started and has not ended. */
  get rounding(): boolean {
    return this.round !== null;
  }

  /**
   * Starts a round over the graph as it is now (edges added meanwhile wait for the next round); `advance` runs it.
   * Until it ends, `scores` answers from the last finished round, so a crawl that plans links between two slices
   * sees one consistent ranking.
   */
  startRound(maxIterations = 50, tolerance = 1e-6, now: () => number = () => Date.now()): void {
    const n = this.urls.length;
    const { offsets, targets } = this.pack();
    this.round = {
      offsets, targets, maxIterations, tolerance, now, ms: 0, iterations: 0, delta: Infinity, phase: 'auth', at: 0,
      hub: grow(this.hub, n).slice(), auth: grow(this.auth, n).slice(), nextAuth: new Float64Array(n), nextHub: new Float64Array(n),
    };
  }

  /**
   * Runs the started round until about `work` edge visits are spent (at least one node's), so the crawl can
   * interleave pages between slices; returns the round once it ended (its vectors then answer `scores`),
   * else null.
   */
  advance(work: number): HitsRound | null {
    const r = this.round;
    if (!r) return null;
    const started = r.now();
    const n = r.hub.length;
    const { offsets, targets, hub, auth, nextAuth, nextHub } = r;
    // An iteration is two passes over the nodes (authorities from hubs, then hubs from authorities); a slice may end
    // inside either, at a node, and the next one goes on from there.
    let spent = 0;
    while (r.iterations < r.maxIterations && r.delta > r.tolerance && (spent === 0 || spent < work)) {
      if (r.phase === 'auth') {
        if (r.at === 0) nextAuth.fill(0);
        for (; r.at < n && (spent === 0 || spent < work); r.at++) {
          const p = r.at, h = hub[p]!;
          spent += 1 + offsets[p + 1]! - offsets[p]!;
          if (h === 0) continue;
          for (let e = offsets[p]!; e < offsets[p + 1]!; e++) nextAuth[targets[e]!]! += h;
        }
        if (r.at < n) break;
        normalize(nextAuth);
        r.phase = 'hub';
        r.at = 0;
      }
      for (; r.at < n && spent < work; r.at++) {
        const p = r.at;
        let sum = 0;
        for (let e = offsets[p]!; e < offsets[p + 1]!; e++) sum += nextAuth[targets[e]!]!;
        nextHub[p] = sum;
        spent += 1 + offsets[p + 1]! - offsets[p]!;
      }
      if (r.at < n) break;
      normalize(nextHub);
      r.delta = Math.max(maxDiff(auth, nextAuth), maxDiff(hub, nextHub));
      auth.set(nextAuth);
      hub.set(nextHub);
      r.iterations++;
      r.phase = 'auth';
      r.at = 0;
      spent += 4 * n;
    }
    r.ms += r.now() - started;
    if (r.iterations < r.maxIterations && r.delta > r.tolerance) return null;
    this.round = null;
    this.hub = hub;
    this.auth = auth;
    this.maxAuth = auth.reduce((m, x) => Math.max(m, x), 0);
    this.maxHub = hub.reduce((m, x) => Math.max(m, x), 0);
    return { iterations: r.iterations, delta: r.delta, nodes: n, edges: targets.length, ms: r.ms };
  }

  /** Normalized authority and hub of a URL (0 for one the graph has not seen, or before a round). */
  scores(url: string): { auth: number; hub: number } {
    const id = this.ids.get(url);
    if (id === undefined || id >= this.auth.length) return { auth: 0, hub: 0 };
    return { auth: this.auth[id]!, hub: this.hub[id]! };
  }

  /**
   * The same divided by the round's largest authority and hub, so the best of each is 1: on the scale of the
   * text part, whatever the graph's size (unit-length vectors shrink as 1/sqrt(nodes)).
   */
  scaled(url: string): { auth: number; hub: number } {
    const s = this.scores(url);
    return { auth: this.maxAuth > 0 ? s.auth / this.maxAuth : 0, hub: this.maxHub > 0 ? s.hub / this.maxHub : 0 };
  }

  /** The `n` best authorities and hubs, for the crawl detail (one pass over the nodes, not a sort of them all). */
  top(n: number): { authorities: { url: string; score: number }[]; hubs: { url: string; score: number }[] } {
    const best = (v: Float64Array) => {
      const kept: number[] = [];
      for (let i = 0; i < v.length; i++) {
        if (!(v[i]! > 0) || (kept.length === n && v[i]! <= v[kept[n - 1]!]!)) continue;
        let at = kept.length === n ? n - 1 : kept.length;
        while (at > 0 && v[kept[at - 1]!]! < v[i]!) {
          if (at < n) kept[at] = kept[at - 1]!;
          at--;
        }
        kept[at] = i;
      }
      return kept.map((i) => ({ url: this.urls[i]!, score: v[i]! }));
    };
    return { authorities: best(this.auth), hubs: best(this.hub) };
  }

  /** Edges as flat arrays: out-links of node p are targets[offsets[p] .. offsets[p+1]). */
  private pack(): { offsets: Int32Array; targets: Int32Array } {
    const n = this.urls.length;
    const offsets = new Int32Array(n + 1);
    for (let p = 0; p < n; p++) offsets[p + 1] = offsets[p]! + this.out[p]!.length;
    const targets = new Int32Array(offsets[n]!);
    for (let p = 0; p < n; p++) targets.set(this.out[p]!, offsets[p]!);
    return { offsets, targets };
  }

  /** What the store keeps: URLs and edges as pairs of ids (8 bytes an edge plus each URL once). */
  toJSON(): { urls: string[]; edges: number[] } {
    const edges: number[] = [];
    this.out.forEach((targets, from) => {
      for (const to of targets) edges.push(from, to);
    });
    return { urls: [...this.urls], edges };
  }

  static fromJSON(data: { urls: string[]; edges: number[] }): LinkGraph {
    const g = new LinkGraph();
    for (const url of data.urls) g.id(url);
    for (let i = 0; i + 1 < data.edges.length; i += 2) g.addPage(data.urls[data.edges[i]!]!, [data.urls[data.edges[i + 1]!]!]);
    return g;
  }
}

/** The previous vector extended to `n` nodes; new nodes start at the mean of the old ones (or 1 at first). */
function grow(v: Float64Array, n: number): Float64Array {
  if (v.length === n) return v;
  const out = new Float64Array(n);
  out.set(v.subarray(0, Math.min(v.length, n)));
  let mean = 0;
  for (const x of v) mean += x;
  mean = v.length ? mean / v.length : 1;
  out.fill(mean > 0 ? mean : 1, v.length);
  return out;
}

function normalize(v: Float64Array): void {
  let sq = 0;
  for (const x of v) sq += x * x;
  const norm = Math.sqrt(sq);
  if (norm === 0) return;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
}

function maxDiff(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}
