import { describe, expect, it } from 'vitest';
import { LlmError } from './errors.js';
import {
  MAX_UPSTREAM_ERROR_TEXT,
  invalidUpstream,
  streamEndedEarly,
  unfinishedStreamError,
  upstreamDecodeFailure,
  upstreamErrorMessage,
} from './upstream-errors.js';

describe('upstream errors', () => {
  it('names the protocol and the terminal event a cut stream never sent', () => {
    expect(streamEndedEarly('openai-responses', 'response.completed').toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'the Responses stream ended before response.completed',
      protocol: 'openai-responses',
      code: 'stream_truncated',
    });
  });

  it('says what did not decode and where, keeping the detail as cause only', () => {
    const cause = new SyntaxError('Unexpected token } in JSON at position 3: "{"a}"');
    const error = invalidUpstream('gemini', 'answer', { path: 'candidates', cause });
    expect(error.toJSON()).toEqual({ kind: 'upstream', status: 502, message: 'invalid Gemini answer at candidates', path: 'candidates', protocol: 'gemini' });
    expect(error.cause).toBe(cause);
    expect(error.retryable).toBe(true);
  });

  it('turns a reader invalid_request or a foreign exception into upstream, and passes other LlmErrors on', () => {
    const reader = LlmError.invalidRequest('usage.input_tokens', 'expected a number, got "x"', 'claude');
    expect(upstreamDecodeFailure('claude', 'answer', reader).toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'invalid Claude answer at usage.input_tokens',
      path: 'usage.input_tokens',
      protocol: 'claude',
    });
    expect(upstreamDecodeFailure('claude', 'stream event', new TypeError('x is undefined')).message).toBe('invalid Claude stream event');
    const own = new LlmError({ kind: 'overloaded', message: 'Overloaded', protocol: 'claude' });
    expect(upstreamDecodeFailure('claude', 'stream event', own)).toBe(own);
  });

  it('names an unfinished canonical stream', () => {
    expect(unfinishedStreamError().toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'the upstream stream ended before it finished',
      code: 'stream_truncated',
    });
  });
});

describe('upstreamErrorMessage', () => {
  it("keeps the provider's own message (read from the protocol's error shape), with no cause", () => {
    expect(upstreamErrorMessage(400, { error: { message: 'bad' } }, 'bad')).toEqual({ message: 'bad' });
  });

  it('answers any other body by its status and keeps its text, capped, as the cause for logs', () => {
    const page = '<html><body>502 Bad Gateway: upstream 10.0.0.5:9099</body></html>';
    const { message, cause } = upstreamErrorMessage(502, page, undefined);
    expect(message).toBe('upstream answered HTTP 502');
    expect([cause?.name, cause?.message]).toEqual(['UpstreamErrorBody', page]);
    expect(upstreamErrorMessage(500, { detail: 'x' }, undefined).cause?.message).toBe('{"detail":"x"}');
    expect(upstreamErrorMessage(500, 'y'.repeat(MAX_UPSTREAM_ERROR_TEXT + 10), undefined).cause?.message).toBe(`${'y'.repeat(MAX_UPSTREAM_ERROR_TEXT)}…`);
  });

  it('has no cause for an empty body', () => {
    expect(upstreamErrorMessage(503, '', undefined)).toEqual({ message: 'upstream answered HTTP 503' });
    expect(upstreamErrorMessage(503, null, undefined)).toEqual({ message: 'upstream answered HTTP 503' });
  });
});
