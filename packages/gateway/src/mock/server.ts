import type { ServedProtocol } from '../served-protocols.js';
import { type NodeServer, serveNode } from '../server/node-adapter.js';
import { createMockHandler, mockBaseUrl } from './handler.js';

/** Options of {@link startMockUpstream}. */
export interface MockUpstreamOptions {
  protocol: ServedProtocol;
  /** Port to listen on; 0 or omitted picks a free one. */
  port?: number;
  host?: string;
  /** Folder that files named in "read <file>" prompts are resolved against. */
  workdir?: string;
}

/** A running mock upstream. */
export interface MockUpstream extends NodeServer {
  protocol: ServedProtocol;
  /** Base URL to put in an upstream config (OpenAI protocols include `/v1`). */
  baseUrl: string;
}

/** Starts the deterministic mock upstream of one protocol on loopback. */
export async function startMockUpstream(options: MockUpstreamOptions): Promise<MockUpstream> {
  const server = await serveNode(createMockHandler(options.protocol, { workdir: options.workdir }), {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
  });
  return { ...server, protocol: options.protocol, baseUrl: mockBaseUrl(options.protocol, server.url) };
}
