// robots.txt read once per crawl rather than once per browser, for a crawl shared by several (docs/scale-out.md):
// the loader asks the shared store for an origin's answer first; the worker that claims it reads it and puts it
// there, the others wait a little for that answer. Passing failures (5xx, 429, network) are not shared: each
// worker retries as RFC 9309 says, and a later success is shared.
import type { Clock } from './fetcher';
import type { RobotsLoader } from './robots';

export type RobotsAnswer = Exclude<Awaited<ReturnType<RobotsLoader>>, { error: string }>;

/** Where a shared crawl keeps robots.txt answers, by robots.txt URL. */
export interface RobotsShare {
  get(robotsUrl: string): Promise<RobotsAnswer | null>;
  /** True for the one worker that is to read it now (for a while); the others wait for its answer. */
  claim(robotsUrl: string): Promise<boolean>;
  put(robotsUrl: string, answer: RobotsAnswer): Promise<void>;
}

/** How long a worker waits for the answer another worker claimed before it reads robots.txt itself. */
export const ROBOTS_WAIT_MS = 10_000;

export function sharedRobotsLoader(load: RobotsLoader, share: RobotsShare, clock: Clock): RobotsLoader {
  return async (robotsUrl) => {
    const deadline = clock.now() + ROBOTS_WAIT_MS;
    for (;;) {
      const known = await share.get(robotsUrl);
      if (known) return known;
      if (clock.now() >= deadline || (await share.claim(robotsUrl))) break;
      await clock.sleep(100);
    }
    const answer = await load(robotsUrl);
    if (!('error' in answer) && answer.status < 500 && answer.status !== 429) await share.put(robotsUrl, answer);
    return answer;
  };
}
