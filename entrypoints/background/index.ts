import { setupCrawler } from '@/lib/platform/setup-crawler';

// Thin wiring: the crawl service answers the message protocol and resumes unfinished crawls on every start.
export default defineBackground({
  main() {
    setupCrawler();
  },
});
