// Issue 17: bad percent-encoding in a request URL answered 500 "URI malformed". matchRequest
// never throws a URIError: a Gemini route whose model is not valid percent-encoding is the
// client's error (invalid_request at `model`, answered 400 in Gemini's shape by the router).
import { LlmError } from '@llm/core';
import { thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

const match = (path: string) => gemini.http.matchRequest('POST', new URL(`http://h${path}`));

describe('http.matchRequest: percent-encoding in the URL', () => {
  it.each(['/v1beta/models/%ZZ:generateContent', '/v1beta/models/gemini%E0%A4%A:streamGenerateContent', '/v1/models/a%:countTokens'])(
    '%s -> invalid_request at model',
    (path) => {
      const error = thrown(() => match(path));
      expect(error).toBeInstanceOf(LlmError);
      expect((error as LlmError).toJSON()).toEqual({
        kind: 'invalid_request',
        status: 400,
        message: 'model: the model in the URL is not valid percent-encoding',
        path: 'model',
        protocol: 'gemini',
      });
      expect((error as LlmError).cause).toBeInstanceOf(URIError);
      expect(gemini.error.encode(error as LlmError)).toEqual({
        status: 400,
        body: { error: { code: 400, message: 'model: the model in the URL is not valid percent-encoding', status: 'INVALID_ARGUMENT' } },
      });
    },
  );

  it('decodes a well-encoded model, and leaves bad encoding outside a Gemini route to other protocols', () => {
    expect(match('/v1beta/models/tuned%2Fmy-model:generateContent')).toEqual({ operation: 'generate', model: 'tuned/my-model', stream: false });
    expect(match('/v1beta/%ZZ/models/m:generateContent')).toBeUndefined();
    expect(match('/%ZZ/chat/completions')).toBeUndefined();
  });
});
