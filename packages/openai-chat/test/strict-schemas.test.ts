import type { CodecContext, LlmRequest, LlmWarning } from '@llm/core';
import { LlmError } from '@llm/core';
import { gemini } from '@llm/gemini';
import { thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const ANY_SCALAR = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] };
const base: LlmRequest = { model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }] }] };

/** A tool schema as clients write it: optional properties, open objects, a ref, an array without items. */
const loose = {
  $defs: { Unit: { type: 'string', enum: ['c', 'f'] } },
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    unit: { $ref: '#/$defs/Unit' },
    days: { type: 'array' },
    address: { type: 'object', properties: { zip: { type: 'string' } }, required: ['zip'] },
  },
  required: ['city', 'country'],
};
const strict = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    unit: { type: ['string', 'null'], enum: ['c', 'f', null] },
    days: { type: ['array', 'null'], items: ANY_SCALAR },
    address: { type: ['object', 'null'], properties: { zip: { type: 'string' } }, required: ['zip'], additionalProperties: false },
  },
  required: ['city', 'unit', 'days', 'address'],
  additionalProperties: false,
};
/** What the rewrite reports, for a schema at `at`. */
function looseWarnings(at: string): LlmWarning[] {
  const optional = 'optional property made required and nullable: strict mode requires every property';
  const closed = 'open object closed (additionalProperties: false): strict mode allows no undeclared properties';
  return [
    { code: 'dropped-field', path: `${at}.properties.city.minLength`, message: 'minLength is not supported in strict mode' },
    { code: 'lossy-conversion', path: `${at}.properties.unit`, message: optional },
    { code: 'lossy-conversion', path: `${at}.properties.days.items`, message: 'an array without items gets any-scalar items: strict mode requires items' },
    { code: 'lossy-conversion', path: `${at}.properties.days`, message: optional },
    { code: 'lossy-conversion', path: `${at}.properties.address.additionalProperties`, message: closed },
    { code: 'lossy-conversion', path: `${at}.properties.address`, message: optional },
    { code: 'dropped-field', path: `${at}.required`, message: 'required names no declared property: ["country"]' },
    { code: 'lossy-conversion', path: `${at}.additionalProperties`, message: closed },
  ];
}

function encode(request: LlmRequest, context: CodecContext = {}): { body: Record<string, unknown>; warnings: LlmWarning[] } {
  const warnings: LlmWarning[] = [];
  const body = openaiChat.request.encode(request, { ...context, warn: (warning) => warnings.push(warning) }) as unknown as Record<string, unknown>;
  return { body, warnings };
}

describe('strict tool and response schemas (Chat)', () => {
  it('strictTools sends every function tool strict, its schema rewritten, each change of meaning warned at its path', () => {
    const request: LlmRequest = {
      ...base,
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: loose },
        { type: 'function', name: 'now', strict: false },
        { type: 'custom', name: 'shell' },
      ],
    };
    const { body, warnings } = encode(request, { strictTools: true });
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: strict, strict: true } },
      { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {}, additionalProperties: false, required: [] }, strict: true } },
      { type: 'custom', custom: { name: 'shell' } },
    ]);
    expect(warnings).toEqual(looseWarnings('tools[0].parameters'));
  });

  it('a tool the client marked strict goes strict without the option; others go as they came', () => {
    const request: LlmRequest = {
      ...base,
      tools: [
        { type: 'function', name: 'get_weather', parameters: loose, strict: true },
        { type: 'function', name: 'lookup', parameters: loose },
      ],
    };
    const { body, warnings } = encode(request);
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', parameters: strict, strict: true } },
      { type: 'function', function: { name: 'lookup', parameters: loose } },
    ]);
    expect(warnings).toEqual(looseWarnings('tools[0].parameters'));
  });

  it('strictTools sends a named JSON response schema strict too', () => {
    const { body, warnings } = encode(
      { ...base, responseFormat: { type: 'json-schema', name: 'weather', schema: loose, strict: false } },
      { strictTools: true },
    );
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'weather', schema: strict, strict: true } });
    expect(warnings).toEqual(looseWarnings('responseFormat.schema'));
    expect(encode({ ...base, responseFormat: { type: 'json-schema', name: 'weather', schema: loose } }).body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'weather', schema: loose },
    });
  });

  it('an invalid schema is a 400 naming the tool and the path before anything is sent', () => {
    const bad: LlmRequest = {
      ...base,
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'strin' } } } }],
    };
    const error = thrown(() => encode(bad, { strictTools: true }));
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).toJSON()).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'tool "get_weather": parameters.properties.city.type: "strin" is not a JSON Schema type',
      path: 'tools[0].parameters.properties.city.type',
    });
    const badFormat: LlmRequest = { ...base, responseFormat: { type: 'json-schema', schema: { type: 'object', required: 'city' } } };
    expect((thrown(() => encode(badFormat)) as LlmError).message).toBe('response format: schema.required: expected an array of strings, got "city"');
  });

  it('a Gemini responseSchema reaches Chat as a strict response format named "response"', () => {
    const request = gemini.request.decode(
      {
        contents: [{ role: 'user', parts: [{ text: 'Weather?' }] }],
        generationConfig: {
          responseMimeType: 'application/json',
          responseSchema: { type: 'OBJECT', properties: { city: { type: 'STRING' }, temp: { type: 'NUMBER', nullable: true } }, required: ['city'] },
        },
      },
      { model: 'gemini-2.5-flash' },
    );
    const { body, warnings } = encode({ ...request, model: 'gpt-5' });
    expect(body).toEqual({
      model: 'gpt-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }] }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'response',
          schema: {
            type: 'object',
            properties: { city: { type: 'string' }, temp: { type: ['number', 'null'] } },
            required: ['city', 'temp'],
            additionalProperties: false,
          },
          strict: true,
        },
      },
    });
    expect(warnings).toEqual([
      {
        code: 'lossy-conversion',
        path: 'responseFormat.schema.properties.temp',
        message: 'optional property made required and nullable: strict mode requires every property',
      },
      {
        code: 'lossy-conversion',
        path: 'responseFormat.schema.additionalProperties',
        message: 'open object closed (additionalProperties: false): strict mode allows no undeclared properties',
      },
    ]);
  });

  it('a Gemini CLI classifier schema in Type-enum spelling passes the check and goes out lowercased', () => {
    const request = gemini.request.decode(
      {
        contents: [{ role: 'user', parts: [{ text: 'Route' }] }],
        generationConfig: {
          responseMimeType: 'application/json',
          responseJsonSchema: {
            type: 'OBJECT',
            properties: { reasoning: { type: 'STRING' }, model_choice: { type: 'STRING', enum: ['flash', 'pro'] } },
            required: ['reasoning', 'model_choice'],
          },
        },
      },
      { model: 'gemini-2.5-flash' },
    );
    expect(encode(request).body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'response',
        schema: {
          type: 'object',
          properties: { reasoning: { type: 'string' }, model_choice: { type: 'string', enum: ['flash', 'pro'] } },
          required: ['reasoning', 'model_choice'],
          additionalProperties: false,
        },
        strict: true,
      },
    });
  });
});
