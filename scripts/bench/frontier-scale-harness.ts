// The frontier-scale harness (frontier-scale-page.ts) as the benches that drive it load it: bundled into one script with
// esbuild, and called function by function in its page. Shared by frontier-scale.ts and frontier-scale-takes.ts.
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import type { FrontierBench } from './frontier-scale-page';

/** The harness as one script; with `before` (another tree), its imports of this tree's lib/ are taken from that tree's. */
export async function bundleFrontierHarness(before: string | null): Promise<string> {
  const root = join(import.meta.dirname, '..', '..');
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, 'frontier-scale-page.ts')],
    bundle: true, format: 'iife', platform: 'browser', target: 'chrome120', write: false, logLevel: 'warning',
    nodePaths: [join(root, 'node_modules')],
    plugins: before ? [{
      name: 'store-before',
      setup(b) {
        b.onResolve({ filter: /^\.\.\/\.\.\/lib\// }, (a) => (a.importer.endsWith('frontier-scale-page.ts') ? { path: `${join(before, a.path.slice('../../'.length))}.ts` } : undefined));
      },
    }] : [],
  });
  return bundle.outputFiles[0]!.text;
}

/** Calls one function of the in-page harness. */
export function inPage<K extends keyof FrontierBench>(p: Page, name: K, ...a: Parameters<FrontierBench[K]>): Promise<Awaited<ReturnType<FrontierBench[K]>>> {
  return p.evaluate(
    ([n, xs]) => (globalThis as unknown as { frontierBench: Record<string, (...v: unknown[]) => unknown> }).frontierBench[n]!(...xs),
    [name, a] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<FrontierBench[K]>>>;
}
