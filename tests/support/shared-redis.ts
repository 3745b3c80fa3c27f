// One redis-server for a describe block of shared-crawl tests, with the client and the bridges its workers open,
// all closed after the block.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import type { Bridge } from '../../lib/store/shared/bridge-server';
import { connectRedis } from '../../lib/store/shared/redis-frontier';
import { startRedis, type RedisProcess } from './redis-server';

export function useSharedRedis(): { readonly redis: Redis; readonly bridges: Bridge[] } {
  let server: RedisProcess | undefined;
  let redis: Redis | undefined;
  const bridges: Bridge[] = [];
  beforeAll(async () => {
    server = await startRedis();
    redis = await connectRedis(server.url);
  });
  afterAll(async () => {
    for (const b of bridges) await b.close();
    redis?.disconnect();
    await server?.stop();
  });
  return {
    get redis() {
      if (!redis) throw new Error('redis-server is not started yet: use it inside a test');
      return redis;
    },
    bridges,
  };
}
