import { CancelSource, LlmError } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import type { Transport, UpstreamResponse } from './router-contract.js';
import { logUpstreamFailures } from './upstream-failure-log.js';

const upstreams = {
  a: { protocol: 'openai-chat' as const, baseUrl: 'http://h/v1' },
  b: { protocol: 'openai-chat' as const, baseUrl: 'http://h/v1/b/' },
};
const answer = (status: number) => ({ status }) as UpstreamResponse;

function observed(transport: Transport) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { lines, send: logUpstreamFailures(transport, upstreams, logger) };
}
const fields = (entry: Record<string, unknown> | undefined) => {
  const { time, ...rest } = entry ?? {};
  return rest;
};

describe('upstream failure log', () => {
  it('logs a retryable status under the upstream of the longest matching base URL; not a success or a 4xx', async () => {
    const statuses = [503, 200, 400, 429];
    const { lines, send } = observed(async () => answer(statuses.shift() as number));
    await send({ url: 'http://h/v1/b/chat/completions', method: 'POST', requestId: 'r1' });
    await send({ url: 'http://h/v1/chat/completions', method: 'POST', requestId: 'r2' });
    await send({ url: 'http://h/v1/chat/completions', method: 'POST', requestId: 'r3' });
    await send({ url: 'http://h/v1/chat/completions', method: 'POST', requestId: 'r4' });
    expect(lines.map(fields)).toEqual([
      { level: 40, name: 'llm-gateway', requestId: 'r1', upstream: 'b', status: 503, msg: 'upstream attempt failed' },
      { level: 40, name: 'llm-gateway', requestId: 'r4', upstream: 'a', status: 429, msg: 'upstream attempt failed' },
    ]);
  });

  it('names no upstream for a URL that only shares a prefix with a base (`/v10` is not under `/v1`)', async () => {
    const { lines, send } = observed(async () => answer(503));
    await send({ url: 'http://h/v10/chat/completions', method: 'POST', requestId: 'r0' });
    expect(lines.map(fields)).toEqual([{ level: 40, name: 'llm-gateway', requestId: 'r0', status: 503, msg: 'upstream attempt failed' }]);
  });

  it('logs a transport error and an attempt that timed out, and rethrows them', async () => {
    const refused = new Error('connect ECONNREFUSED 10.0.0.5:9');
    const { lines, send } = observed(async () => {
      throw refused;
    });
    await expect(send({ url: 'http://h/v1/x', method: 'POST', requestId: 'r5' })).rejects.toBe(refused);
    const timedOut = new CancelSource();
    timedOut.abort(new LlmError({ kind: 'timeout', message: 'upstream did not answer within 5 ms' }));
    await expect(send({ url: 'http://h/v1/x', method: 'POST', cancel: timedOut, requestId: 'r6' })).rejects.toBe(refused);
    expect(lines.map(fields)).toEqual([
      { level: 40, name: 'llm-gateway', requestId: 'r5', upstream: 'a', err: 'Error: connect ECONNREFUSED 10.0.0.5:9', msg: 'upstream attempt failed' },
      { level: 40, name: 'llm-gateway', requestId: 'r6', upstream: 'a', err: 'Error: connect ECONNREFUSED 10.0.0.5:9', msg: 'upstream attempt failed' },
    ]);
  });

  it('logs nothing for an attempt the client cancelled, nor for media downloads', async () => {
    const { lines, send } = observed(async () => {
      throw new Error('aborted');
    });
    const gone = new CancelSource();
    gone.abort(new Error('client disconnected'));
    await expect(send({ url: 'http://h/v1/x', method: 'POST', cancel: gone })).rejects.toThrow('aborted');
    await expect(send({ url: 'http://media/x.png', method: 'GET', purpose: 'media' })).rejects.toThrow('aborted');
    expect(lines).toEqual([]);
  });
});
