// What some tests need from the machine: a Chromium (every end-to-end test), a Firefox (tests/e2e/firefox.test.ts) and
// a redis-server (the shared-crawl tests). A test file names what it needs with a vitest tag, `// @module-tag redis`,
// and vitest.config.ts turns each tag into a rule: where the program is missing, the tests tagged with it skip, and
// the run's last lines say what is missing and how to get it (tests/support/skip-reasons.ts). Under CI=true nothing
// skips: .ci/run installs all three, so a missing one is a broken machine, and the tests that need it fail saying so.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type Requirement = 'chromium' | 'firefox' | 'redis';

/** True on a CI machine: the CI variable set, and not to "false" or "0". */
export const onCI = !!process.env.CI && !['false', '0'].includes(process.env.CI.toLowerCase());

/** The first `name` on PATH, as a shell would find it. */
function onPath(name: string): string | undefined {
  return (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, name)).find((p) => existsSync(p));
}

/** The redis-server the tests start: REDIS_SERVER, or the first on PATH. */
export function redisServerPath(): string | undefined {
  return process.env.REDIS_SERVER || onPath('redis-server');
}

/** What is missing for `what`, as a sentence that says how to get it; undefined when it is there. */
export function missing(what: Requirement): string | undefined {
  switch (what) {
    case 'chromium': {
      // Where scripts/lib/browser.ts launches it from.
      const path = process.env.CHROME_PATH || '/usr/bin/chromium';
      return existsSync(path) ? undefined : `no Chromium at ${path}: install it (Debian: apt-get install chromium) or set CHROME_PATH`;
    }
    case 'firefox': {
      // Where scripts/lib/firefox.ts launches it from.
      const path = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
      return existsSync(path) ? undefined : `no Firefox at ${path}: install it (Debian: apt-get install firefox-esr) or set FIREFOX_PATH`;
    }
    case 'redis': {
      const set = process.env.REDIS_SERVER;
      if (set) return existsSync(set) ? undefined : `no redis-server at ${set} (REDIS_SERVER): install it (Debian: apt-get install redis-server) or unset REDIS_SERVER`;
      return onPath('redis-server') ? undefined : 'no redis-server on PATH: install it (Debian: apt-get install redis-server) or set REDIS_SERVER';
    }
  }
}

export const REQUIREMENTS: readonly Requirement[] = ['chromium', 'firefox', 'redis'];
