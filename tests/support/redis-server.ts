// A throwaway redis-server for tests: Debian's package (.ci/run installs it), on a free loopback port, in a temp
// dir, with nothing saved. Test files that start one carry `@module-tag redis` (tests/support/requirements.ts): where
// redis-server is missing they skip, saying why, and under CI=true they fail with the same sentence.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missing, redisServerPath } from './requirements';

export interface RedisProcess {
  port: number;
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export async function startRedis(extra: string[] = []): Promise<RedisProcess> {
  const absent = missing('redis');
  if (absent) throw new Error(absent);
  const server = redisServerPath()!;
  const dir = mkdtempSync(join(tmpdir(), 'focus-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn(server, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (/Ready to accept connections/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    child.on('error', (err) => reject(new Error(`${server} did not start: ${err.message}`)));
  });
  return {
    port, url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
