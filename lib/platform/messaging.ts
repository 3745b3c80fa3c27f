// Typed runtime messaging over the one ProtocolMap. Browser-only: imports the polyfilled `browser`.
import { browser } from 'wxt/browser';
import { refusal, type ExtensionIdentity } from '../app/message-policy';
import type { Envelope, MessageType, Reply, Request, Response } from '../app/protocol';

/** Sends one protocol request to the service worker; rejects with the worker's error sentence. */
export async function sendMessage<K extends MessageType>(type: K, data: Request<K>): Promise<Response<K>> {
  const reply = (await browser.runtime.sendMessage({ type, data } satisfies Envelope<K>)) as Reply<K> | undefined;
  if (!reply) throw new Error('the Focus service worker did not answer');
  if (!reply.ok) throw new Error(reply.error);
  return reply.result;
}

export type Handlers = { [K in MessageType]: (data: Request<K>) => Promise<Response<K>> | Response<K> };

/**
 * Answers protocol requests with the given handlers, each only from a sender allowed to make it
 * (lib/app/message-policy.ts); unknown messages are left to other listeners. Nothing listens to
 * `onMessageExternal`: other extensions and web pages get no answer at all.
 */
export function onMessages(handlers: Handlers): void {
  const self: ExtensionIdentity = { id: browser.runtime.id, rootUrl: browser.runtime.getURL('/') };
  browser.runtime.onMessage.addListener((message: unknown, sender) => {
    const env = message as Partial<Envelope>;
    if (!env || typeof env.type !== 'string' || !Object.hasOwn(handlers, env.type)) return undefined;
    const type = env.type as MessageType;
    const refused = refusal(type, sender, self);
    if (refused) {
      console.warn(`[focus] refused "${type}" from ${sender.url ?? 'no address'}`);
      return Promise.resolve({ ok: false, error: refused } satisfies Reply<MessageType>);
    }
    const handler = handlers[type] as (d: unknown) => unknown;
    return Promise.resolve()
      .then(() => handler(env.data))
      .then(
        (result) => ({ ok: true, result }),
        (err: unknown) => ({ ok: false, error: err instanceof Error ? err.message : String(err) }),
      );
  });
}
