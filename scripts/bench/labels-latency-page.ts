// In-page half of labels-latency.ts: the measurement on Chromium's IndexedDB. labels-latency.ts bundles this file
// with esbuild and calls `globalThis.labelsLatency.run` with page.evaluate.
import { CrawlerDB } from '../../lib/store/db';
import { measureLatency } from './labels-latency-core';

const api = {
  run: (n: number, answers: number) => measureLatency(new CrawlerDB(`latency-${n}-${Date.now()}`), n, answers, (s) => console.log(s)),
};
export type LatencyBench = typeof api;
Object.assign(globalThis, { labelsLatency: api });
