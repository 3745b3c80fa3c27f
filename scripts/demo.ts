// `npm run demo`: a topical crawl of the built-in demo site, through the real extension in Chromium.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { formatSummary, runCrawl } from './crawl';
import { ROOT } from './lib/browser';
import { ON_TOPIC_PATHS, demoConfig, startDemoServer } from '../tests/fixtures/sites/demo-site';

async function main(): Promise<void> {
  const site = await startDemoServer();
  const out = join(ROOT, 'out', 'demo');
  console.log(`demo site (a library website; the topic is its astronomy section) at ${site.origin}/`);
  try {
    const summary = await runCrawl({ config: demoConfig(site.origin), out });
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
