// Errors: each Bedrock runtime error name to its kind and back, as the AWS SDK reads them.
import { LlmError } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { bedrockConverse } from '../src/index.js';

const headers = (values: Record<string, string>) => new Headers(values);

describe('Converse errors', () => {
  it.each([
    ['ValidationException', 400, 'invalid_request'],
    ['AccessDeniedException', 403, 'permission'],
    ['UnrecognizedClientException', 403, 'authentication'],
    ['ResourceNotFoundException', 404, 'not_found'],
    ['ThrottlingException', 429, 'rate_limit'],
    ['ServiceQuotaExceededException', 400, 'quota'],
    ['ModelNotReadyException', 429, 'overloaded'],
    ['ServiceUnavailableException', 503, 'overloaded'],
    ['ModelTimeoutException', 408, 'timeout'],
    ['InternalServerException', 500, 'server'],
    ['ModelErrorException', 424, 'server'],
  ])('%s (%i) is %s, and encodes back to the same name and status', (name, status, kind) => {
    const error = bedrockConverse.error.decode(
      status,
      { message: 'nope' },
      headers({ 'x-amzn-errortype': `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/` }),
    );
    expect({ kind: error.kind, status: error.status, code: error.code, message: error.message }).toEqual({ kind, status, code: name, message: 'nope' });
    expect(bedrockConverse.error.encode(error)).toEqual({ status, body: { message: 'nope' }, headers: { 'x-amzn-errortype': name } });
  });

  it('reads the name from `__type` too, the retry-after and request id headers, and a too-long input as context length', () => {
    const error = bedrockConverse.error.decode(
      400,
      { __type: 'com.amazon.coral.validate#ValidationException', message: 'Input is too long for requested model.' },
      headers({ 'retry-after': '3', 'x-amzn-requestid': 'req-1' }),
    );
    expect({ kind: error.kind, code: error.code, retryAfterMs: error.retryAfterMs, requestId: error.requestId }).toEqual({
      kind: 'context_length',
      code: 'ValidationException',
      retryAfterMs: 3000,
      requestId: 'req-1',
    });
    expect(bedrockConverse.error.encode(error)).toEqual({
      status: 400,
      body: { message: 'Input is too long for requested model.' },
      headers: { 'x-amzn-errortype': 'ValidationException', 'retry-after': '3', 'x-amzn-requestid': 'req-1' },
    });
  });

  it("a body that is not Converse's keeps its text out of the message", () => {
    const error = bedrockConverse.error.decode(502, '<html>bad gateway</html>');
    expect({ kind: error.kind, message: error.message }).toEqual({ kind: 'upstream', message: 'upstream answered HTTP 502' });
  });

  it("encodes other protocols' errors with the Converse name for their kind", () => {
    const cases: Array<[LlmError, number, string]> = [
      [new LlmError({ kind: 'rate_limit', message: 'slow down', protocol: 'claude', retryAfterMs: 1500 }), 429, 'ThrottlingException'],
      [new LlmError({ kind: 'overloaded', message: 'busy', status: 529, protocol: 'claude' }), 503, 'ServiceUnavailableException'],
      [new LlmError({ kind: 'authentication', message: 'bad key', status: 401, protocol: 'openai-chat' }), 403, 'UnrecognizedClientException'],
      [new LlmError({ kind: 'upstream', message: 'invalid answer' }), 502, 'InternalServerException'],
    ];
    for (const [error, status, name] of cases) {
      const encoded = bedrockConverse.error.encode(error);
      expect({ status: encoded.status, name: encoded.headers?.['x-amzn-errortype'], body: encoded.body }).toEqual({
        status,
        name,
        body: { message: error.message },
      });
    }
    expect(bedrockConverse.error.encode(cases[0]![0]).headers?.['retry-after']).toBe('2');
  });
});
