// `npm run demo [-- --browser chromium|firefox]`: a topical crawl of the built-in demo site, through the real extension
// in Chromium (the default) or Firefox.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatSummary, runCrawl } from './crawl';
import { ROOT } from './lib/browser';
import { BROWSERS, isBrowserName } from './lib/session';
import { ON_TOPIC_PATHS, demoConfig, startDemoServer } from '../tests/fixtures/sites/demo-site';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { browser: { type: 'string', default: 'chromium' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || !isBrowserName(values.browser)) {
    console.error(`usage: npm run demo [-- --browser ${BROWSERS.join('|')}]`);
    process.exit(values.help ? 0 : 2);
  }
  const browser = values.browser;
  const site = await startDemoServer();
  const out = join(ROOT, 'out', 'demo');
  console.log(`demo site (a library website; the topic is its astronomy section) at ${site.origin}/, crawled in ${browser}`);
  try {
    const summary = await runCrawl({ config: demoConfig(site.origin), out, browser });
    const pages = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n')
      .map((l) => JSON.parse(l) as { url: string; error?: string; outcome?: string });
    const fetched = new Set(pages.filter((p) => p.outcome === 'done').map((p) => new URL(p.url).pathname));
    const listed = (outcome: string) => pages.filter((p) => p.outcome === outcome && p.error).map((p) => `${new URL(p.url).pathname}: ${p.error}`).join('; ');
    const never = [['/account/logout', 'unsafe'], ['/account/delete', 'unsafe'], ['/staff/rota', 'robots.txt']]
      .filter(([p]) => !site.hits.has(p)).map(([p, why]) => `${p} (${why})`);
    const found = ON_TOPIC_PATHS.filter((p) => fetched.has(p)).length;
    console.log(formatSummary(summary));
    console.log(`  astronomy pages found: ${found} of ${ON_TOPIC_PATHS.length}; never requested: ${never.join(', ')}`);
    console.log(`  failures recorded: ${listed('failed')}`);
    console.log(`  skipped, with why: ${listed('skipped')}`);
    console.log(`  output: ${join('out', 'demo', 'pages.jsonl')}, ${join('out', 'demo', 'summary.json')}`);
  } finally {
    await site.close();
  }
}

main().catch((err) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
