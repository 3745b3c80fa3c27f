// Typed runtime messaging over the one ProtocolMap. Browser-only: imports the polyfilled `browser`.
import { browser } from 'wxt/browser';
import type { Envelope, MessageType, Reply, Request, Response } from '../protocol';

/** Sends one protocol request to the service worker; rejects with the worker's error sentence. */
export async function sendMessage<K extends MessageType>(type: K, data: Request<K>): Promise<Response<K>> {
  const reply = (await browser.runtime.sendMessage({ type, data } satisfies Envelope<K>)) as Reply<K> | undefined;
  if (!reply) throw new Error('the Focus service worker did not answer');
  if (!reply.ok) throw new Error(reply.error);
  return reply.result;
}

export type Handlers = { [K in MessageType]: (data: Request<K>) => Promise<Response<K>> | Response<K> };

/** Answers protocol requests with the given handlers; unknown messages are left to other listeners. */
export function onMessages(handlers: Handlers): void {
  browser.runtime.onMessage.addListener((message: unknown) => {
    const env = message as Partial<Envelope>;
    if (!env || typeof env.type !== 'string' || !(env.type in handlers)) return undefined;
    const handler = handlers[env.type as MessageType] as (d: unknown) => unknown;
    return Promise.resolve()
      .then(() => handler(env.data))
      .then(
        (result) => ({ ok: true, result }),
        (err: unknown) => ({ ok: false, error: err instanceof Error ? err.message : String(err) }),
      );
  });
}
