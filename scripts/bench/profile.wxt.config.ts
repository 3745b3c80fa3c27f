// The extension built unminified (into .output/, where the benchmarks look), so a CPU profile of the service worker names its functions
// (scripts/bench/crawl-speed.ts --profile). Otherwise the same as wxt.config.ts.
import { defineConfig } from 'wxt';
import base from '../../wxt.config';
import { lazyLinkedomEvents } from '../build/linkedom-events';

export default defineConfig({ ...base, vite: () => ({ plugins: [lazyLinkedomEvents()], build: { minify: false } }) });
