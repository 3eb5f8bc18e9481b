import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LookupFunction } from 'node:net';
import { CancelSource, LlmError, type LlmMcpTool } from '@llm/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { type GatewayMcpHost, createMcpHost } from '../src/mcp/host.js';
import { startForwardProxy } from './helpers/forward-proxy.js';
import { type TestMcpServer, startTestMcpServer } from './helpers/mcp-server.js';
import { FAIL_TEXT, THROW_TEXT } from './helpers/mcp-tools.js';

// The gateway's MCP host (src/mcp) against a real MCP server built with the official SDK's server
// side: over Streamable HTTP, over the older HTTP+SSE, and as a stdio process the host starts.
const STDIO_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'helpers', 'mcp-stdio-server.ts');
const STDIO = { command: process.execPath, args: ['--import', 'tsx', STDIO_SERVER] };

let server: TestMcpServer;
let host: GatewayMcpHost;
const lines: string[] = [];
const logger = createLogger('info', { write: (line: string) => lines.push(line) });
const client = { source: 'client' } as const;
const gateway = { source: 'gateway' } as const;

function mcp(url: string, extra: Partial<LlmMcpTool> = {}): LlmMcpTool {
  return { type: 'mcp', name: 'tests', url, ...extra };
}

function logEntries(msg: string): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === msg);
}

async function refusal(promise: Promise<unknown>): Promise<{ kind: string; status: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!LlmError.isInstance(error)) throw new Error(`expected an LlmError, got ${String(error)}`);
  return { kind: error.kind, status: error.status, message: error.message };
}

beforeAll(async () => {
  server = await startTestMcpServer();
  host = createMcpHost(
    {
      servers: { remote: { url: `${server.origin}/mcp`, headers: { 'x-team': 'blue' } }, local: STDIO },
      allowClientServers: [`${server.origin}/mcp`, `${server.origin}/sse`],
      callTimeoutMs: 3000,
      maxResultBytes: 100,
    },
    logger,
  );
});
afterAll(async () => {
  await host.close();
  await server.close();
});
beforeEach(() => {
  lines.length = 0;
});

describe('MCP host over Streamable HTTP', () => {
  it('lists the tools of a client-supplied server, sending its authorization and headers', async () => {
    server.requests.length = 0;
    const tools = await host.listTools(mcp(`${server.origin}/mcp`, { authorization: 'tok-1', headers: { 'x-extra': 'e' } }), client);
    expect(tools.map((tool) => tool.name)).toEqual(['add', 'slow', 'fail', 'secret_op', 'big', 'pid']);
    expect(tools[0]).toEqual({
      name: 'add',
      description: 'Adds two numbers.',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
    });
    expect(server.requests.length).toBeGreaterThan(0);
    for (const request of server.requests) {
      expect(request.headers.authorization).toBe('Bearer tok-1');
      expect(request.headers['x-extra']).toBe('e');
    }
    expect(logEntries('mcp tools listed')).toEqual([expect.objectContaining({ mcpServer: 'tests', source: 'client', tools: 6, ms: expect.any(Number) })]);
  });

  it('offers only the allowed tools, and refuses to call another one', async () => {
    const server_ = mcp(`${server.origin}/mcp`, { allowedTools: ['add', 'slow'] });
    expect((await host.listTools(server_, client)).map((tool) => tool.name)).toEqual(['add', 'slow']);
    expect(await host.callTool(server_, 'pid', {}, client)).toEqual({
      isError: true,
      content: 'tool "pid" is not an allowed tool of MCP server "tests"',
    });
  });

  it('calls a tool and logs the call without its arguments', async () => {
    expect(await host.callTool(mcp(`${server.origin}/mcp`), 'add', { a: 2, b: 40 }, client)).toEqual({
      isError: false,
      content: '42',
    });
    const [entry] = logEntries('mcp call');
    expect(entry).toEqual(expect.objectContaining({ level: 30, mcpServer: 'tests', tool: 'add', source: 'client', isError: false, ms: expect.any(Number) }));
    expect(entry).not.toHaveProperty('arguments');
    expect(lines.join('\n')).not.toContain('"a":2');
  });

  it('turns a slow tool into an isError result at the call timeout', async () => {
    const quick = createMcpHost({ allowClientServers: [`${server.origin}/mcp`], callTimeoutMs: 300 }, logger);
    const started = performance.now();
    const result = await quick.callTool(mcp(`${server.origin}/mcp`), 'slow', { ms: 5000 }, client);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result).toEqual({ isError: true, content: 'MCP server "tests" did not answer the call of "slow" within 300 ms' });
    expect(logEntries('mcp call')).toEqual([expect.objectContaining({ tool: 'slow', isError: true, err: expect.stringContaining('Request timed out') })]);
    await quick.close();
  });

  it('passes on an error result, and a tool that throws, as isError results', async () => {
    expect(await host.callTool(mcp(`${server.origin}/mcp`), 'fail', { mode: 'result' }, client)).toEqual({
      isError: true,
      content: FAIL_TEXT,
    });
    expect(await host.callTool(mcp(`${server.origin}/mcp`), 'fail', { mode: 'throw' }, client)).toEqual({
      isError: true,
      content: THROW_TEXT,
    });
  });

  it('cuts a result past maxResultBytes, and says so', async () => {
    expect(await host.callTool(mcp(`${server.origin}/mcp`), 'big', { bytes: 250 }, client)).toEqual({
      isError: false,
      content: [
        { type: 'text', text: 'x'.repeat(100) },
        { type: 'text', text: '[result cut by the gateway: 100 of 250 bytes shown]' },
      ],
    });
  });

  it('stops reading a client server answer past 8 MiB: an isError result, the process unharmed', async () => {
    expect(await host.callTool(mcp(`${server.origin}/mcp`), 'big', { bytes: 9 * 1024 * 1024 }, client)).toEqual({
      isError: true,
      content: 'MCP server "tests" could not answer the call of "big"',
    });
    expect(logEntries('mcp call')).toEqual([
      expect.objectContaining({ tool: 'big', isError: true, err: "Error: the MCP server's answer passed 8388608 bytes" }),
    ]);
  });

  it('makes a server that cannot be reached an isError result of callTool and a 502 of listTools, details in the log only', async () => {
    const closed = await startTestMcpServer();
    await closed.close();
    const gone = createMcpHost({ allowClientServers: [`${closed.origin}/mcp`] }, logger);
    expect(await gone.callTool(mcp(`${closed.origin}/mcp`), 'add', { a: 1, b: 2 }, client)).toEqual({
      isError: true,
      content: 'MCP server "tests" could not answer the call of "add"',
    });
    expect(await refusal(gone.listTools(mcp(`${closed.origin}/mcp`), client))).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'MCP server "tests" could not list its tools',
    });
    expect(logEntries('mcp tools list failed')).toEqual([expect.objectContaining({ mcpServer: 'tests', err: expect.stringContaining('ECONNREFUSED') })]);
    await gone.close();
  });

  it('gives up on a server that never answers at the call timeout: listTools 504, callTool an isError result', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
    const quick = createMcpHost({ allowClientServers: [url], callTimeoutMs: 300 }, logger);
    const started = performance.now();
    expect(await refusal(quick.listTools(mcp(url), client))).toEqual({
      kind: 'timeout',
      status: 504,
      message: 'MCP server "tests" did not list its tools within 300 ms',
    });
    expect(await quick.callTool(mcp(url), 'add', { a: 1, b: 2 }, client)).toEqual({
      isError: true,
      content: 'MCP server "tests" did not answer the call of "add" within 300 ms',
    });
    expect(performance.now() - started).toBeLessThan(2000);
    await quick.close();
    silent.closeAllConnections();
    silent.close();
  });

  it('fails a cancelled request instead of answering the model', async () => {
    const cancel = new CancelSource();
    const call = host.callTool(mcp(`${server.origin}/mcp`), 'slow', { ms: 5000 }, { source: 'client', signal: cancel });
    setTimeout(() => cancel.abort(new Error('client went away')), 100);
    expect(await refusal(call)).toEqual({ kind: 'cancelled', status: 499, message: 'the request was cancelled' });
  });

  it('uses a configured server once connected, with its configured headers', async () => {
    server.requests.length = 0;
    const configured: LlmMcpTool = { type: 'mcp', name: 'remote' };
    expect((await host.listTools(configured, gateway)).length).toBe(6);
    expect(await host.callTool(configured, 'add', { a: 1, b: 1 }, gateway)).toEqual({ isError: false, content: '2' });
    // Its headers on every request, and one initialize for both operations: the connection was
    // kept (requests of earlier tests' cancelled calls may still arrive, without the header).
    const configuredPosts = server.requests.filter((request) => request.headers['x-team'] === 'blue' && request.method === 'POST');
    expect(configuredPosts.length).toBe(4); // initialize, initialized, list, call
  });
});

describe('MCP host behind a forward proxy', () => {
  it('reaches servers through the proxy HTTP_PROXY names, which resolves their names', async () => {
    const proxy = await startForwardProxy({ 'mcp.corp.test': '127.0.0.1' });
    const port = new URL(server.origin).port;
    const proxied = createMcpHost(
      { servers: { corp: { url: `http://mcp.corp.test:${port}/mcp` } }, allowClientServers: [`http://mcp.corp.test:${port}/`] },
      logger,
      { env: { HTTP_PROXY: proxy.url } },
    );
    expect(await proxied.callTool({ type: 'mcp', name: 'corp' }, 'add', { a: 1, b: 2 }, gateway)).toEqual({
      isError: false,
      content: '3',
    });
    expect(await proxied.callTool(mcp(`http://mcp.corp.test:${port}/mcp`), 'add', { a: 2, b: 2 }, client)).toEqual({
      isError: false,
      content: '4',
    });
    expect(new Set(proxy.tunnels)).toEqual(new Set([`CONNECT mcp.corp.test:${port}`]));
    await proxied.close();
    await proxy.close();
  });
});

describe('MCP host over the older HTTP+SSE transport', () => {
  it('falls back to SSE when the server refuses Streamable HTTP', async () => {
    const sse = mcp(`${server.origin}/sse`);
    expect((await host.listTools(sse, client)).length).toBe(6);
    expect(await host.callTool(sse, 'add', { a: 3, b: 4 }, client)).toEqual({ isError: false, content: '7' });
  });
});

describe('MCP host safety: client-supplied servers', () => {
  const refused = (url: string | undefined, allow?: string[], lookup?: LookupFunction) => {
    const guarded = createMcpHost({ allowClientServers: allow }, logger, { lookup });
    return refusal(guarded.listTools({ type: 'mcp', name: 'theirs', ...(url === undefined ? {} : { url }) }, client)).finally(() => guarded.close());
  };

  it('refuses every client server when allowClientServers is unset', async () => {
    expect(await refused('https://mcp.example.com/mcp')).toEqual({
      kind: 'permission',
      status: 403,
      message: 'MCP server "theirs": client-supplied MCP servers are not enabled on this gateway',
    });
  });

  it('refuses URLs off the allowlist, normalized first (.. and encoded dots resolved, encoded slashes, other ports, sibling paths)', async () => {
    const allow = ['https://mcp.example.com/tools/'];
    const message = (shown: string) => `MCP server "theirs": ${shown} is not on this gateway's MCP server allowlist`;
    expect(await refused('https://mcp.example.com/tools/../admin/mcp', allow)).toEqual({
      kind: 'permission',
      status: 403,
      message: message('https://mcp.example.com/admin/mcp'),
    });
    expect(await refused('https://mcp.example.com/tools/%2e%2e/admin', allow)).toEqual({
      kind: 'permission',
      status: 403,
      message: message('https://mcp.example.com/admin'),
    });
    expect(await refused('https://mcp.example.com/tools/..%2f..%2fadmin', allow)).toEqual({
      kind: 'permission',
      status: 403,
      message: message('https://mcp.example.com/tools/..%2f..%2fadmin'),
    });
    expect(await refused('https://mcp.example.com:8443/tools/x', allow)).toEqual({
      kind: 'permission',
      status: 403,
      message: message('https://mcp.example.com:8443/tools/x'),
    });
    expect(await refused('https://mcp.example.com/tools2/x', allow)).toEqual({
      kind: 'permission',
      status: 403,
      message: message('https://mcp.example.com/tools2/x'),
    });
  });

  it('refuses credentials in the URL, other schemes, and connectors', async () => {
    const allow = ['https://mcp.example.com/'];
    expect(await refused('https://user:pw@mcp.example.com/mcp', allow)).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'MCP server "theirs": the server URL must not carry credentials',
    });
    expect(await refused('file:///etc/passwd', allow)).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'MCP server "theirs": the server URL must be an http(s) URL',
    });
    expect(await refused(undefined, allow)).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'MCP server "theirs": a server_url is required (connectors are not run by this gateway)',
    });
  });

  it('refuses internal addresses unless an entry names the host', async () => {
    expect(await refused('http://127.0.0.1:9/mcp', ['*.example.com', 'http://127.0.0.2:9/'])).toEqual({
      kind: 'permission',
      status: 403,
      message: `MCP server "theirs": http://127.0.0.1:9/mcp is not on this gateway's MCP server allowlist (an internal address, allowed only when an entry names its host)`,
    });
    // A public-looking name that resolves to an internal address is refused when connecting.
    const toLoopback: LookupFunction = (_host, options, callback) =>
      (options as { all?: boolean }).all
        ? (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: '127.0.0.1', family: 4 }])
        : callback(null, '127.0.0.1', 4);
    expect(await refused('https://mcp.example.com/mcp', ['*.example.com'], toLoopback)).toEqual({
      kind: 'permission',
      status: 403,
      message: 'MCP server "theirs": its host resolves to an internal address, which no allow entry names',
    });
  });

  it('follows no redirect of a client server (its target was never checked against the allowlist)', async () => {
    const moved = createMcpHost({ allowClientServers: [`${server.origin}/moved`] }, logger);
    expect(await refusal(moved.listTools(mcp(`${server.origin}/moved`), client))).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'MCP server "tests" could not list its tools',
    });
    await moved.close();
    // Nor the older transport's event stream, which the SDK would follow within the origin.
    const sseMoved = createMcpHost({ allowClientServers: [`${server.origin}/sse-moved`] }, logger);
    const seen = server.requests.length;
    expect(await refusal(sseMoved.listTools(mcp(`${server.origin}/sse-moved`), client))).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'MCP server "tests" could not list its tools',
    });
    expect(server.requests.slice(seen).map((request) => `${request.method} ${request.path}`)).toEqual(['POST /sse-moved', 'GET /sse-moved']);
    await sseMoved.close();
    // A configured server's redirects within its origin are followed (the SDK's default).
    const configured = createMcpHost({ servers: { moved: { url: `${server.origin}/moved` } } }, logger);
    expect(await configured.callTool({ type: 'mcp', name: 'moved' }, 'add', { a: 1, b: 1 }, gateway)).toEqual({ isError: false, content: '2' });
    await configured.close();
  });

  it('refuses a call of a client server off the allowlist (the request fails)', async () => {
    expect(await refusal(host.callTool(mcp('https://elsewhere.example.com/mcp'), 'add', {}, client))).toEqual({
      kind: 'permission',
      status: 403,
      message: `MCP server "tests": https://elsewhere.example.com/mcp is not on this gateway's MCP server allowlist`,
    });
  });
});

describe('MCP host: stdio servers', () => {
  const local: LlmMcpTool = { type: 'mcp', name: 'local' };
  const pidOf = async () => {
    const result = await host.callTool(local, 'pid', {}, gateway);
    return Number(result.content);
  };
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('starts the server once and reuses it, starts it again when it dies, ends it at close', async () => {
    const first = await pidOf();
    expect(first).toBeGreaterThan(0);
    expect(first).not.toBe(process.pid);
    expect(await pidOf()).toBe(first);
    expect(logEntries('mcp server started')).toEqual([expect.objectContaining({ mcpServer: 'local', pid: first })]);
    process.kill(first, 'SIGKILL');
    await expect.poll(() => alive(first)).toBe(false);
    // Wait until the host saw the exit, then the next call starts a new process.
    let second = first;
    await expect
      .poll(async () => {
        second = await pidOf().catch(() => first);
        return second;
      })
      .not.toBe(first);
    expect(await host.callTool(local, 'add', { a: 5, b: 6 }, gateway)).toEqual({ isError: false, content: '11' });
    const own = createMcpHost({ servers: { local: STDIO } }, logger);
    const result = await own.callTool(local, 'pid', {}, gateway);
    const ownPid = Number(result.content);
    expect(alive(ownPid)).toBe(true);
    await own.close();
    await expect.poll(() => alive(ownPid)).toBe(false);
  });
});
