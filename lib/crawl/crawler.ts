// The run lives in lib/run/ (context, training, template seeding, the crawl loop, the page pipeline); the service
// and the tools start it from here.
export { CrawlRunner } from '../run/runner';
export { describeFatal, type CrawlerPorts } from '../run/context';
