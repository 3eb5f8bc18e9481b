// Connections to MCP servers with the official SDK (@modelcontextprotocol/sdk), imported on first
// use only: a gateway without MCP never loads it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from 'pino';
import { GATEWAY_VERSION } from '../cli/version.js';

export type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';

/** How the gateway introduces itself to MCP servers. */
const CLIENT_INFO = { name: 'llm-gateway', version: GATEWAY_VERSION };

/** An MCP server reached over HTTP. */
export interface HttpServerTarget {
  url: string;
  headers: Record<string, string>;
  /** The fetch its requests go through (default: the global one). */
  fetch?: FetchLike;
  /**
   * Refuse redirects instead of following those within the origin (the SDK's default, on every
   * request, the older transport's event stream included): a client-supplied server's URL was
   * checked against the allowlist, a redirect target would not be.
   */
  noRedirects?: boolean;
}

/** A local MCP server the gateway starts (MCP's stdio transport). */
export interface StdioServerTarget {
  command: string;
  args?: string[];
  /** Added to the SDK's default environment (`HOME`, `PATH`, `USER`...): the gateway's own secrets are not passed on. */
  env?: Record<string, string>;
}

/** Limits of one connect. */
export interface ConnectLimits {
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * True when a Streamable HTTP connect failed in a way that says the server speaks the older
 * HTTP+SSE transport instead: a 4xx other than 401 / 403 (an auth failure is not retried elsewhere).
 */
function meansOlderTransport(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return error instanceof Error && error.name !== 'AbortError' && typeof code === 'number' && code >= 400 && code < 500 && code !== 401 && code !== 403;
}

/** A client connected over `transport`; on failure the transport is closed (a started stdio process ended) and the error thrown. */
async function connected(transport: Transport, limits: ConnectLimits): Promise<Client> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(transport, { timeout: limits.timeoutMs, signal: limits.signal });
    return client;
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

/**
 * `fetch` that follows no redirect: a redirect answer fails the request. The SDK's requests do not
 * all carry its `requestInit` (the older transport's event stream does not), so `redirect` is set here.
 */
function refusingRedirects(fetch: FetchLike): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, { ...init, redirect: 'manual' });
    if (response.type !== 'opaqueredirect' && (response.status < 300 || response.status > 399)) return response;
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`the MCP server answered with a redirect (${response.status}), which is not followed`);
  };
}

/** Connects over Streamable HTTP, or over HTTP+SSE when the server is of the older kind (the SDK's documented fallback). */
export async function connectHttp(target: HttpServerTarget, limits: ConnectLimits): Promise<Client> {
  const { StreamableHTTPClientTransport, StreamableHTTPError } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const url = new URL(target.url);
  const requestInit: RequestInit = { headers: target.headers };
  const fetch = target.noRedirects ? refusingRedirects(target.fetch ?? globalThis.fetch) : target.fetch;
  try {
    return await connected(new StreamableHTTPClientTransport(url, { requestInit, fetch }), limits);
  } catch (error) {
    if (!(error instanceof StreamableHTTPError) || !meansOlderTransport(error)) throw error;
  }
  const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
  return connected(new SSEClientTransport(url, { requestInit, fetch }), limits);
}

/** Starts a stdio server and connects to it; its stderr lines are logged under its name. */
export async function connectStdio(name: string, target: StdioServerTarget, limits: ConnectLimits, logger: Logger): Promise<Client> {
  const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: target.command,
    args: target.args ?? [],
    env: { ...getDefaultEnvironment(), ...target.env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => logger.info({ mcpServer: name, stderr: chunk.toString('utf8').slice(0, 2000) }, 'mcp server stderr'));
  const client = await connected(transport, limits);
  logger.info({ mcpServer: name, pid: transport.pid }, 'mcp server started');
  return client;
}
