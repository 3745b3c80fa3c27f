// The layering of docs/architecture.md ("How the layering is checked"): dependency-cruiser with the rules in
// .dependency-cruiser.cjs, over the real tree, and over a small tree of bad imports to show it can fail.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = resolve(import.meta.dirname, '../..');

async function violationsIn(baseDir: string, folders: string[], withTsConfig: boolean): Promise<IViolation[]> {
  const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
  const tsConfig = withTsConfig ? extractTSConfig(join(ROOT, 'tsconfig.json')) : undefined;
  if (!withTsConfig) delete options.tsConfig;
  // "@/" as the config's webpackConfig (scripts/build/resolve-alias.cjs) resolves it for `npm run layers`.
  const result = await cruise(folders, { ...options, baseDir }, { alias: { '@': ROOT } }, tsConfig ? { tsConfig } : {});
  return (result.output as ICruiseResult).summary.violations;
}

/**
 * The modules each page's script loads before it runs: its imports followed, but not its dynamic ones nor those of
 * types. The pages are read in one cruise, which parses the modules they share once.
 */
async function loadedAtOpen(entries: string[]): Promise<Map<string, string[]>> {
  const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
  const tsConfig = extractTSConfig(join(ROOT, 'tsconfig.json'));
  // The packages are listed (the layering's check leaves them out), not followed.
  const cruised = { ...options, baseDir: ROOT, ruleSet: undefined, validate: false, tsPreCompilationDeps: false, exclude: { path: '^(\\.wxt|\\.output)/' } };
  const result = await cruise(entries, cruised, { alias: { '@': ROOT } }, { tsConfig });
  const modules = new Map((result.output as ICruiseResult).modules.map((m) => [m.source, m]));
  return new Map(entries.map((entry) => {
    const loaded = new Set([entry]);
    for (const source of loaded) {
      for (const d of modules.get(source)?.dependencies ?? []) if (!d.dynamic) loaded.add(d.resolved);
    }
    return [entry, [...loaded]];
  }));
}

const shown = (v: IViolation) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`;

describe('the layering', () => {
  it('lib/ and entrypoints/ import only their own layer or one below, with no cycle', async () => {
    const found = await violationsIn(ROOT, ['lib', 'entrypoints'], true);
    expect(found.map(shown)).toEqual([]);
  });

  it('fails on an import that points up, a cycle, a file in no layer, the browser or Node in the wrong place and the store ranking', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'focus-layers-'));
    const files: Record<string, string> = {
      // Down: the page parser reads the records.
      'lib/records/types.ts': 'export type Topic = { id: number };\n',
      'lib/parse/html.ts': "import type { Topic } from '../records/types';\nexport const topicOf = (t: Topic) => t.id;\n",
      // Up: a record that imports the app.
      'lib/records/url.ts': "import { start } from '../app/service';\nexport const siteOf = () => start;\n",
      'lib/app/service.ts': 'export const start = 1;\n',
      // Up: the store on the export.
      'lib/store/db.ts': "import { EXPORT_FORMATS } from '../export/selection';\nexport const formats = EXPORT_FORMATS;\n",
      'lib/export/selection.ts': "export const EXPORT_FORMATS = ['csv'];\n",
      // A cycle inside one layer.
      'lib/net/fetcher.ts': "import { gate } from './request-gate';\nexport const fetchOnce = () => gate;\n",
      'lib/net/request-gate.ts': "import { fetchOnce } from './fetcher';\nexport const gate = () => fetchOnce;\n",
      // A new folder that is in no layer.
      'lib/queue/pool.ts': "import { siteOf } from '../records/url';\nexport const pool = siteOf;\n",
      'lib/parse/tokenize.ts': "import { pool } from '../queue/pool';\nexport const words = pool;\n",
      // The browser outside lib/platform/.
      'lib/net/session.ts': "import { browser } from 'wxt/browser';\nexport const cookies = browser;\n",
      // Up: the config on the strategies (their parameters are checked in the app, lib/app/parse-config.ts).
      'lib/records/config.ts': "import { STRATEGY_NAMES } from '../strategies/registry';\nexport const names = STRATEGY_NAMES;\n",
      'lib/strategies/registry.ts': "export const STRATEGY_NAMES = ['best-first'];\n",
      // Down, but policy: the store ranking with the classifier.
      // Redis outside the runner's side.
      'lib/store/queue.ts': "import { Redis } from 'ioredis';\nexport const queue = Redis;\n",
      'lib/store/frontier-store.ts': "import { urlLogOdds } from '../learning/link-classifier';\nexport const rank = urlLogOdds;\n",
      'lib/learning/link-classifier.ts': 'export const urlLogOdds = 1;\n',
      // Node outside the runner's side, and the extension reaching the runner's side.
      'lib/run/runner.ts': "import { hostname } from 'node:os';\nexport const worker = hostname;\n",
      'lib/app/shared-run.ts': "import { hostname } from 'node:os';\nexport const join = hostname;\n",
      'entrypoints/background/index.ts': "import { join } from '../../lib/app/shared-run';\nexport default join;\n",
    };
    try {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const found = (await violationsIn(dir, ['lib', 'entrypoints'], false)).map(shown).sort();
      expect(found).toEqual([
        'extension-runs-no-node: entrypoints/background/index.ts -> lib/app/shared-run.ts',
        'imports-a-layer: lib/parse/tokenize.ts -> lib/queue/pool.ts',
        'in-a-layer: lib/queue/pool.ts -> lib/records/url.ts',
        'lib-runs-in-node: lib/net/session.ts -> wxt/browser',
        'no-circular: lib/net/fetcher.ts -> lib/net/request-gate.ts (lib/net/request-gate.ts -> lib/net/fetcher.ts)',
        'node-only-in-the-runner: lib/run/runner.ts -> os',
        'records-imports-down: lib/records/config.ts -> lib/strategies/registry.ts',
        'records-imports-down: lib/records/url.ts -> lib/app/service.ts',
        'redis-only-in-the-runner: lib/store/queue.ts -> ioredis',
        'store-holds-no-policy: lib/store/frontier-store.ts -> lib/learning/link-classifier.ts',
        'store-imports-down: lib/store/db.ts -> lib/export/selection.ts',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The HTML parser (linkedom and the DOM it builds), gzip and the archive writers are most of the extension's script by
  // size: the popup and the dashboard load them only when an export starts.
  it('opens the popup and the dashboard without loading the HTML parser or the export writers', async () => {
    for (const [entry, loaded] of await loadedAtOpen(['entrypoints/popup/main.ts', 'entrypoints/dashboard/main.ts'])) {
      expect(loaded.length, entry).toBeGreaterThan(20);
      expect(loaded.filter((m) => /node_modules\/(linkedom|htmlparser2|cssomnom|warcio|pako|hash-wasm|client-zip)\/|^lib\/parse\/html\.ts$|^lib\/export\/(jsonl|warc|wacz|html-zip)\.ts$/.test(m)), entry).toEqual([]);
    }
  });
});
