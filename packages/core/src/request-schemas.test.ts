import { thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { LlmError } from './errors.js';
import type { LlmRequest } from './request.js';
import { checkRequestSchemas } from './request-schemas.js';

function errorOf(request: LlmRequest): unknown {
  const error = thrown(() => checkRequestSchemas(request));
  return error instanceof LlmError ? error.toJSON() : error;
}

const base: LlmRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };

describe('checkRequestSchemas', () => {
  it('passes valid tool and response schemas, tools without parameters and non-function tools', () => {
    const request: LlmRequest = {
      ...base,
      tools: [
        { type: 'function', name: 'now' },
        { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        { type: 'custom', name: 'shell', format: { type: 'text' } },
        { type: 'provider', protocol: 'claude', name: 'web_search_20250305', value: { type: 'web_search_20250305', name: 'web_search', parameters: 7 } },
      ],
      responseFormat: { type: 'json-schema', name: 'weather', schema: { type: 'object' } },
    };
    expect(errorOf(request)).toBeUndefined();
    expect(errorOf({ ...base, responseFormat: { type: 'json' } })).toBeUndefined();
  });

  it('names the tool and the path inside its schema', () => {
    const request: LlmRequest = {
      ...base,
      tools: [
        { type: 'function', name: 'now' },
        { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'strin' } } } },
      ],
    };
    expect(errorOf(request)).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'tool "get_weather": parameters.properties.city.type: "strin" is not a JSON Schema type',
      path: 'tools[1].parameters.properties.city.type',
    });
  });

  it('names the response format, with or without a name', () => {
    const schema = { type: 'object', required: [1] };
    expect(errorOf({ ...base, responseFormat: { type: 'json-schema', name: 'weather', schema } })).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'response format "weather": schema.required[0]: expected a string, got 1',
      path: 'responseFormat.schema.required[0]',
    });
    expect(errorOf({ ...base, responseFormat: { type: 'json-schema', schema } })).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'response format: schema.required[0]: expected a string, got 1',
      path: 'responseFormat.schema.required[0]',
    });
  });
});
