// Shared set-up of the Chromium tests on the demo site: a built extension, a fresh profile, the site on loopback.
import { afterAll, beforeAll } from 'vitest';
import { ensureBuilt, launchWithExtension, type Launched } from '../../scripts/lib/browser';
import { startDemoServer, type DemoServer } from '../fixtures/sites/demo-site';

export interface DemoBrowser {
  site: DemoServer;
  browser: Launched;
}

/** Registers hooks that start the demo site and Chromium before the file's tests and close them after. */
export function useDemoBrowser(): DemoBrowser {
  const env = {} as DemoBrowser;
  beforeAll(async () => {
    ensureBuilt();
    env.site = await startDemoServer();
    env.browser = await launchWithExtension();
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.site?.close();
  });
  return env;
}
