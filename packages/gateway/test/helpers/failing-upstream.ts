import { type NodeServer, serveNode } from '../../src/server/node-adapter.js';

/** An OpenAI-compatible upstream answering every call 503, counting the calls. */
export interface FailingUpstream {
  server: NodeServer;
  /** Calls received since the start or the last `calls = 0`. */
  calls: number;
}

export async function startFailingUpstream(): Promise<FailingUpstream> {
  const upstream = { calls: 0 } as FailingUpstream;
  upstream.server = await serveNode(async () => {
    upstream.calls++;
    return new Response('{"error":{"message":"down","type":"server_error"}}', { status: 503, headers: { 'content-type': 'application/json' } });
  });
  return upstream;
}

/** A Chat Completions request for `model` to the gateway at `url`. */
export function askChat(url: string, model: string): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
}
