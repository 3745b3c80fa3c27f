// The name the worker gives an unnamed crawl, "astronomy on example.org, 26 Nov", and reading it back: an export's
// file name and a crawl started again use its parts.

const DAY_MONTH = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });

/**
 * What an unnamed crawl is called: its topic, the host it starts on and the day, "astronomy on example.org,
 * 26 Nov", so that crawls of one site or one topic can be told apart in the list.
 */
export function describedCrawlName(topicName: string, seed: string, now: number): string {
  return `${topicName} on ${new URL(seed).hostname}, ${DAY_MONTH.format(now)}`;
}

/** A described name, with the "(2)" a second one of the same day gets (lib/app/service.ts freeCrawlName). */
const DESCRIBED = /^(.+) on ([^\s,]+), \d{1,2} [A-Z][a-z]{2,3}(?: \((\d+)\))?$/;

/** The topic, host and number of a name `describedCrawlName` made, or null for a name the user gave. */
export function describedParts(name: string): { topic: string; host: string; n?: number } | null {
  const m = DESCRIBED.exec(name);
  return m ? { topic: m[1]!, host: m[2]!, ...(m[3] ? { n: Number(m[3]) } : {}) } : null;
}
