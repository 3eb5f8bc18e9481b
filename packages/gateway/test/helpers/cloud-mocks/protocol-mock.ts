// The repository's deterministic protocol mocks (src/mock), called in-process by the cloud mocks
// once a request passed the cloud's own checks: the cloud mock rewrites the call into the plain
// protocol's form, and the answers (text, tool calls, scripted errors) are the ones every
// end-to-end test knows.
import type { ServedProtocol } from '../../../src/served-protocols.js';
import { createMockHandler } from '../../../src/mock/handler.js';

const handlers = new Map<ServedProtocol, ReturnType<typeof createMockHandler>>();

export function callProtocolMock(protocol: ServedProtocol, path: string, body: unknown): Promise<Response> {
  let handler = handlers.get(protocol);
  if (!handler) handlers.set(protocol, (handler = createMockHandler(protocol)));
  const text = JSON.stringify(body);
  return handler({ method: 'POST', url: `http://protocol-mock${path}`, headers: { get: () => null }, text: async () => text });
}
