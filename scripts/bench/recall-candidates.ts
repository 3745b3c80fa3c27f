// The recall estimators that were measured against the one the crawl keeps (lib/learning/recall.ts), on the same
// traces (recall-trace.ts), made from what a crawl knows at the time: docs/recall.md gives their figures.
//   capture-recapture: links from the newest half of the relevant pages point at on-topic pages already found
//     or not yet; the share already found estimates recall (Lincoln-Petersen). A link to a page not yet judged counts
//     with the calibrated chance of its log-odds (the kept estimator's curve), so only the idea differs.
//   harvest fit: the harvest of the newest quarter against the one before, read as an exponential fall; what is left
//     is the harvest now times the fall's length in pages.
import { chanceAt, fitCalibration, withTaken } from '../../lib/learning/recall';
import type { TakenBins } from '../../lib/records/rows';
import type { Trace } from './recall-trace';

export interface CandidatePoint {
  fetched: number;
  truth: number;
  captureRecapture: number | null;
  harvestFit: number | null;
}

/** The two candidates at each snapshot of a trace, with the true recall there. */
export function candidates(trace: Trace): CandidatePoint[] {
  const onTopic = new Set(trace.onTopic);
  const reachable = new Set(trace.reachable);
  const total = trace.onTopic.filter((a) => reachable.has(a)).length;
  const crawl = trace.pages.filter((p) => p.phase === 'crawl');
  const takenAt = new Map<string, number>();
  crawl.forEach((p, i) => takenAt.has(p.article) || takenAt.set(p.article, i));
  const out: CandidatePoint[] = [];
  for (const snap of trace.snapshots) {
    const k = crawl.findIndex((p) => p.fetched > snap.fetched);
    const upto = k < 0 ? crawl.length : k;
    const pages = crawl.slice(0, upto);
    const held = new Set(pages.filter((p) => onTopic.has(p.article) && reachable.has(p.article)).map((p) => p.article));
    const relevant = pages.filter((p) => p.relevant).length;
    let taken: TakenBins = {};
    for (const p of pages) if (p.relevant !== null && p.priority < Number.MAX_VALUE) taken = withTaken(taken, p.priority, p.relevant);
    const judged = pages.filter((p) => p.relevant !== null).length;
    const enough = judged >= 200 && relevant >= 10 && judged - relevant >= 10;
    out.push({
      fetched: snap.fetched, truth: held.size / total,
      captureRecapture: enough ? captureRecapture(pages, takenAt, taken) : null,
      harvestFit: enough ? harvestFit(pages, relevant) : null,
    });
  }
  return out;
}

function captureRecapture(pages: Trace['pages'], takenAt: Map<string, number>, taken: TakenBins): number {
  const cal = fitCalibration(taken);
  let found = 0, all = 0;
  for (let i = Math.floor(pages.length / 2); i < pages.length; i++) {
    const p = pages[i]!;
    if (!p.relevant) continue;
    for (const [target, logOdds] of p.links) {
      if (logOdds === null) continue;
      const j = takenAt.get(target);
      if (j !== undefined && j < i) {
        // Judged before this page linked it: found if judged on topic, and no part of the topic otherwise.
        if (pages[j]?.relevant) (found++, all++);
      } else all += chanceAt(cal, logOdds);
    }
  }
  return all > 0 ? found / all : 0;
}

function harvestFit(pages: Trace['pages'], relevant: number): number {
  const quarter = Math.max(50, Math.floor(pages.length / 4));
  const rate = (from: number, to: number) => pages.slice(Math.max(0, from), to).filter((p) => p.relevant).length / Math.max(1, to - Math.max(0, from));
  const before = rate(pages.length - 2 * quarter, pages.length - quarter);
  const now = rate(pages.length - quarter, pages.length);
  // No fall yet: nothing says how much is left, and the estimate is what the harvest at this pace for a budget as
  // long again would leave (a lower bound in spirit, not in fact).
  const left = now >= before ? now * pages.length : now * (quarter / Math.log(before / Math.max(now, 1e-3)));
  return relevant / (relevant + left);
}
