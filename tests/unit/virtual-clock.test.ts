// The tests' virtual clock: sleepers wake in the order they are due, at their time, and only when time is moved.
import { expect, it } from 'vitest';
import { VirtualClock } from '../support/virtual-clock';

it('wakes sleepers when time reaches them, in order, each seeing its own wake-up time', async () => {
  const clock = new VirtualClock(0);
  const woke: [string, number][] = [];
  const nap = (name: string, ms: number) => clock.sleep(ms).then(() => void woke.push([name, clock.now()]));
  void nap('long', 300);
  void nap('short', 100);
  await clock.advance(50);
  expect(woke).toEqual([]);
  await clock.advance(100);
  expect(woke).toEqual([['short', 100]]);
  expect(clock.now()).toBe(150);
  await clock.runUntilIdle();
  expect(woke).toEqual([['short', 100], ['long', 300]]);
  expect(clock.pending).toBe(0);
});

it('runs a loop of sleeps to its end, as a crawl waiting out a delay between requests', async () => {
  const clock = new VirtualClock(0);
  const at: number[] = [];
  const loop = (async () => {
    for (let i = 0; i < 5; i++) {
      at.push(clock.now());
      await clock.sleep(700);
    }
  })();
  await clock.runUntilIdle();
  await loop;
  expect(at).toEqual([0, 700, 1400, 2100, 2800]);
});
