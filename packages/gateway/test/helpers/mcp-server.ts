// A real MCP server for tests, built with the official SDK's server side: Streamable HTTP on a
// free loopback port (stateless: a server and transport per request), and the older HTTP+SSE
// transport under /sse for the client's fallback. test/helpers/mcp-stdio-server.ts serves the
// same tools over stdio.
import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type TestToolCall, testMcpServer } from './mcp-tools.js';

export interface TestMcpServer {
  /** `http://127.0.0.1:<port>`; Streamable HTTP at `/mcp`, HTTP+SSE at `/sse`, a redirect to `/mcp` at `/moved`, an event stream redirected to `/sse` at `/sse-moved`. */
  readonly origin: string;
  /** The headers of every request, in order. */
  readonly requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  /** The calls of `add` and `secret_op` that ran, in order, over either transport. */
  readonly calls: TestToolCall[];
  close(): Promise<void>;
}

export async function startTestMcpServer(): Promise<TestMcpServer> {
  const requests: TestMcpServer['requests'] = [];
  const calls: TestToolCall[] = [];
  const onCall = (call: TestToolCall) => void calls.push(call);
  const sse = new Map<string, SSEServerTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ method: req.method ?? '', path, headers: req.headers });
    if (path === '/mcp' && req.method === 'POST') {
      const server = testMcpServer(onCall);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      await transport.handleRequest(req, res);
      return;
    }
    if (path === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sse.set(transport.sessionId, transport);
      res.on('close', () => sse.delete(transport.sessionId));
      await testMcpServer(onCall).connect(transport);
      return;
    }
    if (path === '/messages' && req.method === 'POST') {
      const transport = sse.get(new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '');
      if (transport) return void (await transport.handlePostMessage(req, res));
      res.writeHead(404).end('no such session');
      return;
    }
    // A server that moved: every request is sent on to /mcp.
    if (path === '/moved') {
      res.writeHead(307, { location: '/mcp' }).end();
      return;
    }
    // An older server that moved: its event stream is sent on to /sse (its POST falls to the 405 below).
    if (path === '/sse-moved' && req.method === 'GET') {
      res.writeHead(307, { location: '/sse' }).end();
      return;
    }
    // What an older (HTTP+SSE only) server answers a Streamable HTTP POST.
    res.writeHead(405, { allow: 'GET' }).end('method not allowed');
  };
  const http = createServer((req, res) => void handle(req, res).catch(() => res.writeHead(500).end()));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    requests,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
