import type { ReplyHandler } from '@llm/router';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { createGatewayHandler } from './gateway-handler.js';
import { requestIdOf } from './request-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const headers = (id?: string) => new Headers(id === undefined ? {} : { 'x-request-id': id });

describe('requestIdOf', () => {
  it('keeps a client id of at most 128 characters of [A-Za-z0-9._:-]', () => {
    expect(requestIdOf(headers('req-1'))).toBe('req-1');
    expect(requestIdOf(headers('A.b_c:d-9'))).toBe('A.b_c:d-9');
    expect(requestIdOf(headers('x'.repeat(128)))).toBe('x'.repeat(128));
  });

  it('mints a UUID for none, an empty one, a longer one or any other character', () => {
    for (const id of [undefined, '', 'x'.repeat(129), 'a b', 'id"}', 'a/b', 'café', 'a%0Ab', '<script>']) expect(requestIdOf(headers(id))).toMatch(UUID);
  });
});

describe('the gateway handler under a client request id', () => {
  it('a refused id appears in no log line, header or 500 message: the minted one does', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (text: string) => void lines.push(...text.split('\n').filter(Boolean)) });
    const failing: ReplyHandler = async () => {
      throw new Error('boom');
    };
    const handler = createGatewayHandler({ router: failing, keys: [], logger });
    const hostile = `forged","level":60,"msg":"admin ${'z'.repeat(200)}`;
    const reply = await handler({ method: 'POST', url: 'http://gateway.test/v1/chat/completions', headers: headers(hostile), text: async () => '{}' });
    const minted = reply.headers['x-request-id'] as string;
    expect(minted).toMatch(UUID);
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body as string)).toEqual({
      error: { message: `internal error (request id ${minted})`, type: 'server_error', param: null, code: null },
    });
    expect(lines.map((line) => (JSON.parse(line) as { requestId: string }).requestId)).toEqual([minted, minted]);
    expect(lines.join('\n')).not.toContain('forged');
  });
});
