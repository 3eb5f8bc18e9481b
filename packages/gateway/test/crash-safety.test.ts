import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplyHandler } from '@llm/router';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type Gateway, startGateway } from '../src/server/start.js';

// No request can end the gateway's process: issue 17, "one request can end the process".
let claude: MockUpstream;
const logs: string[] = [];
const logger = createLogger('info', { write: (line: string) => logs.push(line) });

beforeAll(async () => {
  claude = await startMockUpstream({ protocol: 'claude' });
});
afterAll(async () => {
  await claude.close();
});

function configFor(extra: Record<string, unknown> = {}) {
  return parseConfig(
    JSON.stringify({
      upstreams: { claude: { protocol: 'claude', baseUrl: claude.baseUrl, apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'claude' }],
      ledger: false,
      ...extra,
    }),
  );
}

async function health(gateway: Gateway): Promise<number> {
  return (await fetch(`${gateway.url}/health`)).status;
}

describe('a request cannot end the process', () => {
  it('serves a client body key that is not ASCII (or holds CR / LF / NUL) with warningsHeader on, and keeps serving', async () => {
    const gateway = await startGateway(configFor({ warningsHeader: true }), { port: 0, logger });
    try {
      // Each key percent-encoded as UTF-8: every byte outside printable ASCII (space, CR, LF, NUL included).
      const headerFor: Record<string, string> = {
        日本語: 'dropped-field@%E6%97%A5%E6%9C%AC%E8%AA%9E, defaulted@max_tokens',
        'a\r\nset-cookie: x=1': 'dropped-field@a%0D%0Aset-cookie:%20x=1, defaulted@max_tokens',
        'nul\u0000': 'dropped-field@nul%00, defaulted@max_tokens',
      };
      for (const [key, header] of Object.entries(headerFor)) {
        const res = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }], [key]: 1 }),
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe('Mock claude says: hi');
        expect(res.headers.get('x-llm-warnings')).toBe(header);
        expect(res.headers.get('set-cookie')).toBeNull();
        expect(await health(gateway)).toBe(200);
      }
    } finally {
      await gateway.close();
    }
  });

  it('answers a router that throws with a generic 500 in the client protocol naming the request id, logs the detail, keeps serving', async () => {
    const throwing: ReplyHandler = async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x') at /srv/app/secret.js:1:1");
    };
    const gateway = await startGateway(configFor(), { port: 0, logger, createRouter: () => throwing });
    try {
      const claudeRes = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { 'x-request-id': 'req-claude' }, body: '{}' });
      expect(claudeRes.status).toBe(500);
      expect(await claudeRes.json()).toEqual({ type: 'error', error: { type: 'api_error', message: 'internal error (request id req-claude)' } });
      const geminiRes = await fetch(`${gateway.url}/v1beta/models/g:generateContent`, {
        method: 'POST',
        headers: { 'x-request-id': 'req-gemini' },
        body: '{}',
      });
      expect(await geminiRes.json()).toEqual({ error: { code: 500, message: 'internal error (request id req-gemini)', status: 'INTERNAL' } });
      const chatRes = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-request-id': 'req-chat' }, body: '{}' });
      expect(await chatRes.json()).toEqual({ error: { message: 'internal error (request id req-chat)', type: 'server_error', param: null, code: null } });
      expect(await health(gateway)).toBe(200);
      const line = logs.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.requestId === 'req-claude' && entry.level === 50);
      expect(line).toMatchObject({
        msg: 'request failed inside the gateway',
        err: "TypeError: Cannot read properties of undefined (reading 'x') at /srv/app/secret.js:1:1",
      });
    } finally {
      await gateway.close();
    }
  });

  it('answers a reply node refuses to write (a bad header name) with a 500 in the client protocol, logs that 500 as the access status, keeps serving', async () => {
    const badHead: ReplyHandler = async (request) => ({ status: 200, headers: { 'x-request-id': request.requestId ?? '', 'bad name': 'v' }, body: '{}' });
    const gateway = await startGateway(configFor(), { port: 0, logger, createRouter: () => badHead });
    try {
      const res = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { 'x-request-id': 'req-head' }, body: '{}' });
      expect(res.status).toBe(500);
      expect(res.headers.get('x-request-id')).toBe('req-head');
      expect(await res.json()).toEqual({ type: 'error', error: { type: 'api_error', message: 'internal error (request id req-head)' } });
      // One access line, with what the client got (it said 200, the router's status, before).
      const access = logs
        .map((text) => JSON.parse(text) as Record<string, unknown>)
        .filter((entry) => entry.requestId === 'req-head' && entry.msg === 'request');
      expect(access).toEqual([expect.objectContaining({ method: 'POST', path: '/v1/messages', status: 500, protocol: 'claude' })]);
      expect(await health(gateway)).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});
