import { describe, expect, it } from 'vitest';
import { ERROR_KINDS, INTERNAL_ERROR_MESSAGE, LlmError, errorKindForStatus, parseRetryAfter, retryAfterFromHeaders } from './errors.js';

describe('errorKindForStatus', () => {
  it.each([
    [400, 'invalid_request'],
    [401, 'authentication'],
    [402, 'quota'],
    [403, 'permission'],
    [404, 'not_found'],
    [408, 'timeout'],
    [409, 'conflict'],
    [413, 'request_too_large'],
    [422, 'invalid_request'],
    [429, 'rate_limit'],
    [499, 'cancelled'],
    [500, 'server'],
    [502, 'upstream'],
    [503, 'overloaded'],
    [504, 'timeout'],
    [529, 'overloaded'],
    [507, 'server'],
    [418, 'invalid_request'],
  ] as const)('maps %i to %s', (status, kind) => {
    expect(errorKindForStatus(status)).toBe(kind);
  });
});

describe('LlmError', () => {
  it('takes status and retryability from the kind table by default', () => {
    const error = new LlmError({ kind: 'rate_limit', message: 'slow down', retryAfterMs: 2000 });
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(2000);
    expect(error.name).toBe('LlmError');
    expect(error).toBeInstanceOf(Error);
  });

  it('lets a codec choose another status (Claude answers overloaded with 529)', () => {
    const error = new LlmError({ kind: 'overloaded', message: 'busy', status: 529, protocol: 'claude' });
    expect(error.status).toBe(529);
    expect(error.retryable).toBe(ERROR_KINDS.overloaded.retryable);
  });

  it('builds bad-input errors with the path first in the message', () => {
    const error = LlmError.invalidRequest('messages[1].role', 'expected "user" or "assistant", got "tool"', 'claude');
    expect(error.kind).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.path).toBe('messages[1].role');
    expect(error.message).toBe('messages[1].role: expected "user" or "assistant", got "tool"');
    expect(error.protocol).toBe('claude');
  });

  it('recognises instances by marker, also from another copy of the class', () => {
    const error = new LlmError({ kind: 'server', message: 'x' });
    expect(LlmError.isInstance(error)).toBe(true);
    const foreign = Object.assign(new Error('y'), { [Symbol.for('@llm/core.LlmError')]: true });
    expect(LlmError.isInstance(foreign)).toBe(true);
    expect(LlmError.isInstance(new Error('z'))).toBe(false);
    expect(LlmError.isInstance(null)).toBe(false);
    expect(LlmError.isInstance('LlmError')).toBe(false);
  });

  it('keeps the raw upstream body and cause out of toJSON', () => {
    const cause = new Error('socket hang up');
    const error = new LlmError({
      kind: 'authentication',
      message: 'invalid key',
      code: 'invalid_api_key',
      requestId: 'req_1',
      raw: { error: { message: 'Incorrect API key provided: sk-secret' } },
      cause,
    });
    expect(error.toJSON()).toEqual({
      kind: 'authentication',
      status: 401,
      message: 'invalid key',
      code: 'invalid_api_key',
      requestId: 'req_1',
    });
    expect(JSON.stringify(error)).not.toContain('sk-secret');
    expect(error.cause).toBe(cause);
    expect(error.raw).toEqual({ error: { message: 'Incorrect API key provided: sk-secret' } });
  });

  it('wraps foreign throwables as server errors with a fixed message and passes LlmErrors through', () => {
    const original = new LlmError({ kind: 'timeout', message: 't' });
    expect(LlmError.from(original)).toBe(original);
    // Issue 17: a foreign message (file paths, upstream addresses) never reaches a client.
    const cause = new TypeError("Cannot read properties of undefined (reading 'x') at /srv/app/handler.js:12");
    const wrapped = LlmError.from(cause);
    expect(wrapped.kind).toBe('server');
    expect(wrapped.status).toBe(500);
    expect(wrapped.message).toBe('internal error');
    expect(wrapped.cause).toBe(cause);
    expect(wrapped.toJSON()).toEqual({ kind: 'server', status: 500, message: 'internal error' });
    const fromText = LlmError.from('connect ECONNREFUSED 10.0.0.5:9099');
    expect(fromText.message).toBe(INTERNAL_ERROR_MESSAGE);
    expect(fromText.cause).toBe('connect ECONNREFUSED 10.0.0.5:9099');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds, fractions and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.5')).toBe(500);
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:59:00 GMT', now)).toBe(0);
  });
  it('ignores missing and unreadable values', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-3')).toBeUndefined();
  });
  it('prefers retry-after-ms when both headers are present', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '9' }))).toBe(9000);
    expect(retryAfterFromHeaders(new Headers())).toBeUndefined();
  });
});
