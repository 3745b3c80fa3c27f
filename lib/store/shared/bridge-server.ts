// The loopback bridge between the extension's service worker and Redis: an HTTP server on 127.0.0.1 (a random
// port), answering POST /<token>/<call> with JSON, for the one worker this runner drives. It also renews the
// worker's leases while the runner lives: the heartbeat that tells the other workers this one is not dead.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RobotsAnswer } from '../../net/shared-robots';
import type { RecordWrite } from '../../ports';
import type { LinkSourceTaught, RescoreMove, SharedAck, SharedEntry, SharedLabel } from './bridge';
import { record, recordApply, records, searchClaim, searchDone } from './redis-cycles';
import type { CrawlParams, RedisFrontier } from './redis-frontier';

export interface Bridge {
  url: string;
  token: string;
  worker: string;
  close(): Promise<void>;
}

export async function openBridge(frontier: RedisFrontier, worker: string, params: CrawlParams, log: (line: string) => void): Promise<Bridge> {
  const token = randomBytes(18).toString('base64url');
  // This run of the worker: its leases, claims and lead are the run's, so a worker killed and started again under its
  // name does not keep its killed run's leases alive with its heartbeat.
  const run = `${worker}#${randomBytes(3).toString('hex')}`;
  const calls: Record<string, (body: Record<string, unknown>) => Promise<unknown>> = {
    take: async (b) => frontier.take(run, Math.max(1, Math.min(64, Number(b.max) || 1)), params),
    ack: async (b) => ({ results: await frontier.ack(run, b.acks as SharedAck[], params) }),
    robots: async (b) => frontier.robots(String(b.url), b.claim === true, b.answer as RobotsAnswer | undefined),
    labels: async (b) => frontier.labelsAfter(worker, Math.max(0, Number(b.after) || 0)),
    trainClaim: async (b) => frontier.claimLinkSource(run, (b.urls as string[]).map(String), params.leaseMs),
    trained: async (b) => ({
      result: await frontier.linkSourceRead(run, String(b.url), b.labels as SharedLabel[], (b.addresses as string[] | undefined) ?? [String(b.url)],
        { outlinks: b.outlinks as LinkSourceTaught['outlinks'], judge: b.judge as LinkSourceTaught['judge'] }),
    }),
    judgeLessons: async (b) => frontier.judgeLessonsAfter(worker, Math.max(0, Number(b.after) || 0)),
    trainingLinks: async () => ({ pages: await frontier.trainingLinks() }),
    graph: async (b) => frontier.graphAfter(run, Math.max(0, Number(b.after) || 0)),
    searchClaim: async () => searchClaim(frontier, run, params.leaseMs),
    searchDone: async (b) => ({ result: await searchDone(frontier, run, b.run, b.seeds as SharedEntry[]) }),
    records: async () => records(frontier),
    record: async (b) => ({ record: await record(frontier, String(b.url)) }),
    recordApply: async (b) => {
      await recordApply(frontier, b.write as RecordWrite);
      return {};
    },
    strategyState: async (b) => {
      await frontier.saveStrategyState(worker, b.state);
      return {};
    },
    rescoreLead: async (b) => frontier.rescoreLead(run, params.leaseMs, String(b.why ?? '')),
    rescoreSlice: async (b) => frontier.rescoreSlice(String(b.cursor), Math.max(1, Math.min(5000, Number(b.count) || 500))),
    rescoreWrite: async (b) => frontier.rescoreWrite(run, String(b.fence), params.leaseMs, String(b.from), String(b.next), Number(b.scanned) || 0, b.moves as RescoreMove[]),
    rescoreLeave: async (b) => {
      await frontier.rescoreLeave(run, String(b.fence));
      return {};
    },
    release: async (b) => ({ released: await frontier.release(run, b.leases as [string, number][]) }),
    queued: async () => {
      const s = await frontier.status();
      return { queued: s.queued, ended: s.ended };
    },
  };
  const server: Server = createServer((req, res) => {
    const [, tok, call] = (req.url ?? '').split('/');
    const handler = calls[call ?? ''];
    if (req.method !== 'POST' || tok !== token || !handler) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
          const out = JSON.stringify(await handler(body));
          res.writeHead(200, { 'content-type': 'application/json' }).end(out);
        } catch (err) {
          const msg = err instanceof Error ? err.message : String(err);
          log(`shared frontier: ${call} failed: ${msg}`);
          res.writeHead(500, { 'content-type': 'text/plain' }).end(msg);
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // Renewed three times per lease: a worker's lease lapses only when its runner has been gone for a whole lease.
  const heartbeat = setInterval(() => {
    frontier.renew(run, params.leaseMs).catch((err: unknown) => log(`shared frontier: renewing leases failed: ${err instanceof Error ? err.message : err}`));
  }, Math.max(200, params.leaseMs / 3));
  return {
    url: `http://127.0.0.1:${port}`, token, worker,
    close: async () => {
      clearInterval(heartbeat);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
