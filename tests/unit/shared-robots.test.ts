// robots.txt on a crawl shared by several browsers: one worker reads an origin's robots.txt, the others use its
// answer; a passing failure is not shared (each worker asks again later), and a claim left by a worker that
// died is waited out, not forever.
import { describe, expect, it } from 'vitest';
import { sharedRobotsLoader, ROBOTS_WAIT_MS, type RobotsAnswer, type RobotsShare } from '../../lib/net/shared-robots';
import type { RobotsLoader } from '../../lib/net/robots';

function memoryShare(): RobotsShare & { answers: Map<string, RobotsAnswer>; claims: Set<string> } {
  const answers = new Map<string, RobotsAnswer>();
  const claims = new Set<string>();
  return {
    answers, claims,
    get: async (url) => answers.get(url) ?? null,
    claim: async (url) => (claims.has(url) ? false : (claims.add(url), true)),
    put: async (url, a) => void answers.set(url, a),
  };
}

const clock = () => {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
};

describe('robots.txt read once per shared crawl', () => {
  it('two workers at once: one request, the same rules for both', async () => {
    const share = memoryShare();
    let requests = 0;
    const load: RobotsLoader = async (url) => {
      requests++;
      await new Promise((r) => setTimeout(r, 20));
      return { status: 200, text: 'User-agent: *\nDisallow: /private', url, hops: [] };
    };
    const real = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
    const [a, b] = await Promise.all([sharedRobotsLoader(load, share, real)('http://a.test/robots.txt'), sharedRobotsLoader(load, share, real)('http://a.test/robots.txt')]);
    expect(requests).toBe(1);
    expect(a).toEqual(b);
  });

  it('a 503 is not shared: the next worker reads robots.txt itself once the claim lapses', async () => {
    const share = memoryShare();
    const load: RobotsLoader = async (url) => ({ status: 503, text: '', url, hops: [] });
    expect(await sharedRobotsLoader(load, share, clock())('http://a.test/robots.txt')).toMatchObject({ status: 503 });
    expect(share.answers.size).toBe(0);
    const c = clock();
    let read = false;
    await sharedRobotsLoader(async (url) => ((read = true), { status: 404, text: '', url, hops: [] }), share, c)('http://a.test/robots.txt');
    expect(read).toBe(true);
    expect(c.now()).toBeGreaterThanOrEqual(ROBOTS_WAIT_MS); // it waited for the claim holder's answer first
    expect(share.answers.get('http://a.test/robots.txt')).toMatchObject({ status: 404 });
  });
});
