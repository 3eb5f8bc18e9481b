// Issue 17: `GET /v1/responses/%E0%A4%A` answered 500 "URI malformed". matchRequest never throws
// a URIError: an id that is not valid percent-encoding is the client's error (invalid_request at
// `response_id`, answered 400 in the Responses shape by the router).
import { LlmError } from '@llm/core';
import { thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

describe('http.matchRequest: percent-encoding in the response id', () => {
  it.each(['/v1/responses/%E0%A4%A', '/v1/responses/resp_%ZZ'])('GET %s -> invalid_request at response_id', (path) => {
    const error = thrown(() => openaiResponses.http.matchRequest('GET', new URL(`http://h${path}`)));
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).toJSON()).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'response_id: the response id in the URL is not valid percent-encoding',
      path: 'response_id',
      protocol: 'openai-responses',
    });
    expect(openaiResponses.error.encode(error as LlmError).status).toBe(400);
  });

  it('decodes a well-encoded id', () => {
    expect(openaiResponses.http.matchRequest('GET', new URL('http://h/v1/responses/resp%5F1'))).toEqual({ operation: 'retrieve-response', id: 'resp_1' });
  });
});
