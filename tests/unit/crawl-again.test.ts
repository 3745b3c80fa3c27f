// "Crawl again" on an ended crawl's popup card: the config it sends is the crawl's own, for its topic, and the worker
// takes it as it took the first.
import { expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { crawlAgain } from '../../lib/ui/popup-crawls';

const config = parseConfig({
  name: 'Sky', seeds: ['https://example.org/sky/'], topic: { keywords: ['astronomy'] }, budget: { maxPages: 40 },
  training: { linkSources: ['https://example.org/'], positive: ['https://example.org/sky/*'] }, strategy: { name: 'sparse-tunneling', maxTunnel: 4 },
});

it('starts a topic crawl again with its settings, for its topic, keeping a name the user gave', () => {
  const again = crawlAgain({ name: 'Sky', config, topicId: 7, state: 'finished' })!;
  expect(again.label).toBe('Crawl again');
  const reparsed = parseConfig(again.start);
  expect(reparsed).toEqual({ ...config, topic: { ...config.topic, id: 7 } });
});

it('lets the worker describe anew a name it described, and runs a template\'s next cycle', () => {
  const described = crawlAgain({ name: 'astronomy on example.org, 26 Nov (2)', config: { ...config, name: 'astronomy on example.org, 26 Nov (2)' }, topicId: 7, state: 'stopped' })!;
  expect(described.start).not.toHaveProperty('name');
  expect(crawlAgain({ name: 'shops', config: { ...config, template: {} as never }, topicId: 2, state: 'failed' })).toMatchObject({ label: 'Recrawl', recrawl: { name: 'shops' } });
  // Not while it runs, and not a crawl whose big seed list its row does not keep.
  expect(crawlAgain({ name: 'Sky', config, topicId: 7, state: 'paused' })).toBeNull();
  expect(crawlAgain({ name: 'Sky', config, topicId: 7, state: 'finished', seedsGiven: 50_000 })).toBeNull();
});
