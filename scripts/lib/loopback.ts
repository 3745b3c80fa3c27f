// Test and benchmark sites listen on 127.0.0.1 only: this machine's network is loopback.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on 127.0.0.1 (port 0: any free port); returns the origin and a close that drops open connections. */
export async function listenOnLoopback(server: Server, port = 0): Promise<{ origin: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
