// The in-page harnesses of the frontier benches as the benches load them: bundled into one script with esbuild (for
// frontier-scale.ts and frontier-scale-takes.ts, frontier-scale-page.ts; for frontier-take-fifo.ts, its own page), and
// the frontier-scale harness called function by function in its page.
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import type { FrontierBench } from './frontier-scale-page';

/**
 * A harness page (a file of scripts/bench) as one script; with `before` (another tree), the benches' imports of this
 * tree's lib/ are taken from that tree's.
 */
export async function bundleHarness(page: string, before: string | null): Promise<string> {
  const root = join(import.meta.dirname, '..', '..');
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, page)],
    bundle: true, format: 'iife', platform: 'browser', target: 'chrome120', write: false, logLevel: 'warning',
    nodePaths: [join(root, 'node_modules')],
    plugins: before ? [{
      name: 'store-before',
      setup(b) {
        b.onResolve({ filter: /^\.\.\/\.\.\/lib\// }, (a) => (a.importer.includes(join('scripts', 'bench')) ? { path: `${join(before, a.path.slice('../../'.length))}.ts` } : undefined));
      },
    }] : [],
  });
  return bundle.outputFiles[0]!.text;
}

/** The frontier-scale harness (frontier-scale-page.ts) as one script. */
export const bundleFrontierHarness = (before: string | null) => bundleHarness('frontier-scale-page.ts', before);

/** Calls one function of the in-page harness. */
export function inPage<K extends keyof FrontierBench>(p: Page, name: K, ...a: Parameters<FrontierBench[K]>): Promise<Awaited<ReturnType<FrontierBench[K]>>> {
  return p.evaluate(
    ([n, xs]) => (globalThis as unknown as { frontierBench: Record<string, (...v: unknown[]) => unknown> }).frontierBench[n]!(...xs),
    [name, a] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<FrontierBench[K]>>>;
}
