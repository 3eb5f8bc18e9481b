import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/expand-env.js';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { ConfiguredMcpHost, mcpHostConfig, routerMcpConfig } from '../src/mcp/configured-host.js';

// The `mcp` config section and routes' `mcpServers` (issue 24).
const BASE = { upstreams: { chat: { protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:9' } }, ledger: false };

function problemsOf(config: unknown): readonly string[] {
  try {
    parseConfig(JSON.stringify(config), {});
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('mcp config', () => {
  it('takes remote and stdio servers, the client allowlist and the limits, and routes naming servers', () => {
    const config = parseConfig(
      JSON.stringify({
        ...BASE,
        mcp: {
          servers: {
            docs: { url: 'https://mcp.example.com/mcp', headers: { authorization: 'Bearer t' } },
            files: { command: 'npx', args: ['-y', 'some-mcp-server'], env: { ROOT: '/srv' } },
          },
          allowClientServers: ['https://mcp.example.com/'],
          maxTurns: 4,
          timeBudgetMs: 60000,
          callTimeoutMs: 5000,
          maxResultBytes: 1000,
        },
        routes: [{ match: '*', upstream: 'chat', mcpServers: ['docs', 'files'], mcp: { run: 'gateway' } }],
      }),
      {},
    );
    expect(config.mcp).toEqual({
      servers: {
        docs: { url: 'https://mcp.example.com/mcp', headers: { authorization: 'Bearer t' } },
        files: { command: 'npx', args: ['-y', 'some-mcp-server'], env: { ROOT: '/srv' } },
      },
      allowClientServers: ['https://mcp.example.com/'],
      maxTurns: 4,
      timeBudgetMs: 60000,
      callTimeoutMs: 5000,
      maxResultBytes: 1000,
    });
    expect(config.routes[0]?.mcpServers).toEqual(['docs', 'files']);
    expect(config.routes[0]?.mcp).toEqual({ run: 'gateway' });
    expect(problemsOf({ ...BASE, routes: [{ match: '*', upstream: 'chat', mcp: { run: 'upstream' } }] })).toEqual(['routes.0.mcp.run: expected "gateway"']);
  });

  it('reports route entries naming no configured server, with the name most likely meant', () => {
    expect(
      problemsOf({
        ...BASE,
        mcp: { servers: { docs: { url: 'https://mcp.example.com/mcp' } } },
        routes: [{ match: '*', upstream: 'chat', mcpServers: ['docs', 'dosc', 'weather'] }],
      }),
    ).toEqual(['routes.0.mcpServers.1: names no server of mcp.servers (did you mean docs?)', 'routes.0.mcpServers.2: names no server of mcp.servers']);
    expect(problemsOf({ ...BASE, routes: [{ match: '*', upstream: 'chat', mcpServers: ['docs'] }] })).toEqual([
      'routes.0.mcpServers.0: names no server of mcp.servers',
    ]);
  });

  it('refuses server names a label cannot carry, non-http URLs, servers of both kinds or neither, and limits below 1', () => {
    const either = 'give url (and headers) for a remote server, or command (and args, env) for a local one';
    expect(
      problemsOf({
        ...BASE,
        mcp: {
          servers: {
            'my docs': { url: 'https://mcp.example.com/mcp' },
            ftp: { url: 'ftp://mcp.example.com/' },
            both: { url: 'https://mcp.example.com/', command: 'server' },
            neither: {},
            local: { command: 'server', headers: { a: 'b' } },
          },
          callTimeoutMs: 0,
        },
        routes: [{ match: '*', upstream: 'chat' }],
      }),
    ).toEqual([
      'mcp.servers.my docs: must be 1 to 64 letters, digits, _ or -',
      'mcp.servers.ftp.url: must be an http(s) URL',
      `mcp.servers.both: ${either}`,
      `mcp.servers.neither: ${either}`,
      `mcp.servers.local: ${either}`,
      'mcp.callTimeoutMs: must be at least 1',
    ]);
  });
});

describe('mcp config to the host and the router', () => {
  const mcp = {
    servers: { docs: { url: 'https://mcp.example.com/mcp', headers: { 'x-a': 'b' } }, files: { command: 'server', args: ['--root', '/srv'] } },
    allowClientServers: ['https://mcp.example.com/'],
    maxTurns: 3,
    callTimeoutMs: 1000,
  };

  it('gives the host every server and limit, and the router the servers by name only and the loop limits', () => {
    expect(mcpHostConfig(mcp)).toEqual({
      servers: { docs: { url: 'https://mcp.example.com/mcp', headers: { 'x-a': 'b' } }, files: { command: 'server', args: ['--root', '/srv'] } },
      allowClientServers: ['https://mcp.example.com/'],
      callTimeoutMs: 1000,
    });
    const host = { listTools: async () => [], callTool: async () => ({ content: '', isError: false }), close: async () => undefined };
    expect(routerMcpConfig(mcp, host)).toEqual({
      host,
      servers: { docs: { type: 'mcp', name: 'docs' }, files: { type: 'mcp', name: 'files' } },
      maxTurns: 3,
    });
  });

  it('keeps the host while the section is unchanged, and replaces it when it changes', async () => {
    const hosts = new ConfiguredMcpHost(createLogger('silent'));
    expect(hosts.for(undefined)).toBeUndefined();
    const first = hosts.for(mcp);
    expect(hosts.for(structuredClone(mcp))).toBe(first);
    const second = hosts.for({ ...mcp, maxTurns: 4 });
    expect(second).not.toBe(first);
    expect(second).toBeDefined();
    expect(hosts.for(undefined)).toBeUndefined();
    await hosts.close();
  });
});
