// A page whose host's robots.txt is still being read when the crawl halts (the session ended, the user paused) is
// not requested once the read is in: the gate gives it back, and its host's slot is free again.
import { expect, it } from 'vitest';
import { RequestGate, type GatePolicy } from '../../lib/net/request-gate';
import { Politeness } from '../../lib/net/politeness';
import { RobotsCache } from '../../lib/net/robots';

const clock = { now: () => 0, sleep: async () => {} };

it('requests nothing when the crawl halts while the page waits for its robots.txt', async () => {
  let halted = false;
  let robotsAnswer: () => void = () => {};
  const requested: string[] = [];
  const port = async (url: string) => {
    requested.push(url);
    if (url.endsWith('/robots.txt')) {
      await new Promise<void>((r) => (robotsAnswer = r));
      return new Response('User-agent: *\nAllow: /\n', { status: 200, headers: { 'content-type': 'text/plain' } });
    }
    return new Response('<a href="/b">b</a>', { status: 200, headers: { 'content-type': 'text/html' } });
  };
  const policy: GatePolicy = {
    unsafe: () => null, outOfScope: () => null, privateTarget: () => null, canonical: (u) => u, halted: () => halted,
  };
  const politeness = new Politeness({ delayMs: 0, perHost: 1 });
  const gate = new RequestGate(port, clock, policy, politeness, (load) => new RobotsCache(load, clock), { timeoutMs: 5000, maxBytes: 1 << 20, maxRedirects: 3 });

  politeness.begin('shop.test'); // the take reserved the host's slot
  const result = gate.page('https://shop.test/p/1', { expectsSession: true }, async () => null);
  await until(() => requested.length === 1);
  halted = true; // the answer to another page ended the session
  robotsAnswer();

  expect(await result).toBeNull();
  expect(requested).toEqual(['https://shop.test/robots.txt']);
  expect(politeness.waitFor('shop.test', 0)).toBe(0);
});

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(done()).toBe(true);
}
