import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplyHandler } from '@llm/router';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import type { RouterConfig } from '../src/router-contract.js';
import { type Gateway, startGateway } from '../src/server/start.js';

// One log line per request with warnings or a failure (issue 17: 100,000 warning lines, 29 MB,
// for one 1 MB request; contract 2 of the hardening work).
let chat: MockUpstream;
let gateway: Gateway;
const lines: string[] = [];

beforeAll(async () => {
  chat = await startMockUpstream({ protocol: 'openai-chat' });
  const config = parseConfig(
    JSON.stringify({ upstreams: { chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl } }, routes: [{ match: '*', upstream: 'chat' }], ledger: false }),
  );
  // At debug: translation warnings are logged at debug only (issue 20: at warn they outnumbered the access lines).
  gateway = await startGateway(config, { port: 0, logger: createLogger('debug', { write: (line: string) => lines.push(line) }) });
});
afterAll(async () => {
  await gateway.close();
  await chat.close();
});

function entries(): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('request outcome logs', () => {
  it('logs a request with 100,000 dropped metadata keys in one bounded line, and answers /health meanwhile', async () => {
    const metadata: Record<string, string> = {};
    for (let i = 0; i < 100_000; i++) metadata[`k${i}`] = 'v';
    const body = JSON.stringify({ model: 'gpt-4.1', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], metadata });
    expect(body.length).toBeGreaterThan(1_000_000);
    lines.length = 0;
    const [big, health] = await Promise.all([
      fetch(`${gateway.url}/v1/messages`, { method: 'POST', body, headers: { 'x-request-id': 'many-keys' } }),
      fetch(`${gateway.url}/health`, { headers: { 'x-request-id': 'health' } }),
    ]);
    expect(big.status).toBe(200);
    expect(health.status).toBe(200);
    // Four lines in all: the big request's access, warnings and (at debug) diagnostics lines, /health's access line.
    expect(
      entries()
        .map((entry) => `${entry.requestId} ${entry.msg}`)
        .sort(),
    ).toEqual(['health request', 'many-keys diagnostics', 'many-keys request', 'many-keys translation warnings']);
    expect(lines.join('').length).toBeLessThan(32 * 1024);
    const warned = entries().find((entry) => entry.msg === 'translation warnings');
    expect(warned).toMatchObject({ level: 20, requestId: 'many-keys', status: 200, upstream: 'chat', warningsDropped: 99_900 });
    const warnings = warned?.warnings as { code: string; path: string }[];
    expect(warnings).toHaveLength(100);
    expect(warnings[0]).toMatchObject({ code: 'dropped-field', path: 'metadata.k0' });
  });

  it('logs a failure once with its internal detail, which the client never sees', async () => {
    const failing =
      (config: RouterConfig): ReplyHandler =>
      async (request) => {
        config.hooks?.onRequestEnd?.({
          requestId: request.requestId ?? '',
          clientProtocol: 'claude',
          upstream: 'chat',
          status: 502,
          stream: false,
          totalMs: 1,
          errorKind: 'upstream',
          errorDetail: 'connect ECONNREFUSED 10.0.0.5:9099',
          warnings: [{ code: 'dropped-field', path: 'x'.repeat(10_000), message: 'dropped' }],
        });
        return {
          status: 502,
          headers: { 'content-type': 'application/json' },
          body: '{"type":"error","error":{"type":"api_error","message":"upstream failed"}}',
        };
      };
    const own = await startGateway(
      parseConfig(
        JSON.stringify({ upstreams: { chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl } }, routes: [{ match: '*', upstream: 'chat' }], ledger: false }),
      ),
      {
        port: 0,
        createRouter: failing,
        logger: createLogger('info', { write: (line: string) => lines.push(line) }),
      },
    );
    try {
      lines.length = 0;
      const res = await fetch(`${own.url}/v1/messages`, { method: 'POST', body: '{}', headers: { 'x-request-id': 'failing' } });
      expect(await res.text()).not.toContain('10.0.0.5');
      const failed = entries().filter((entry) => entry.msg === 'request failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({
        level: 50,
        requestId: 'failing',
        status: 502,
        upstream: 'chat',
        errorKind: 'upstream',
        errorDetail: 'connect ECONNREFUSED 10.0.0.5:9099',
        warningsDropped: 0,
      });
      expect((failed[0]?.warnings as { path: string }[])[0]?.path).toBe(`${'x'.repeat(255)}…`);
    } finally {
      await own.close();
    }
  });
});
