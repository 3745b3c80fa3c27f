// A Vite plugin for the extension's build: linkedom's nodes get lib/parse/event-target.ts as their EventTarget, which
// makes a node's listener map only when a listener is added (see there why). Node runs (tests, benchmarks) keep
// linkedom's own; the two behave the same.
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const LAZY = fileURLToPath(new URL('../../lib/parse/event-target.ts', import.meta.url));
/** linkedom's modules that import its EventTarget by a relative path. */
const IMPORTER = /[\\/]linkedom[\\/](esm|cjs)[\\/](interface[\\/][^\\/]+|index)\.js$/;

export function lazyLinkedomEvents(): Plugin {
  let replaced = 0;
  return {
    name: 'focus:linkedom-lazy-events',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !IMPORTER.test(importer) || !/(^|\/)event-target\.js$/.test(source)) return null;
      replaced++;
      return LAZY;
    },
    buildEnd() {
      // linkedom's layout changed: say so rather than build with the slow EventTarget unnoticed.
      if (replaced === 0 && this.getModuleIds) {
        const usesLinkedom = [...this.getModuleIds()].some((id) => /[\\/]linkedom[\\/]/.test(id));
        if (usesLinkedom) this.error("linkedom is bundled but its EventTarget ('./event-target.js') was never imported: update scripts/build/linkedom-events.ts");
      }
    },
  };
}
