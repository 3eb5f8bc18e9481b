import type { CodecContext, LlmRequest, LlmWarning } from '@llm/core';
import type { LlmError } from '@llm/core';
import { gemini } from '@llm/gemini';
import { thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const base: LlmRequest = { model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Find it' }] }] };

/** A schema with what strict mode refuses: a format, a map object, a recursive ref, an open root. */
const loose = {
  type: 'object',
  properties: {
    query: { type: 'string', format: 'uri' },
    filters: { type: 'object', additionalProperties: { type: 'string' } },
    tree: { $ref: '#/$defs/Node' },
  },
  required: ['query', 'tree'],
  $defs: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['children'] } },
};
const strict = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    filters: { type: ['object', 'null'], properties: {}, required: [], additionalProperties: false },
    tree: { $ref: '#/$defs/Node' },
  },
  required: ['query', 'filters', 'tree'],
  additionalProperties: false,
  $defs: {
    Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['children'], additionalProperties: false },
  },
};
function looseWarnings(at: string): LlmWarning[] {
  const closed = 'open object closed (additionalProperties: false): strict mode allows no undeclared properties';
  return [
    { code: 'dropped-field', path: `${at}.properties.query.format`, message: 'format "uri" is not supported in strict mode' },
    {
      code: 'dropped-field',
      path: `${at}.properties.filters.additionalProperties`,
      message: 'strict mode allows no undeclared properties: additionalProperties set to false',
    },
    {
      code: 'lossy-conversion',
      path: `${at}.properties.filters`,
      message: 'optional property made required and nullable: strict mode requires every property',
    },
    { code: 'lossy-conversion', path: `${at}.additionalProperties`, message: closed },
    { code: 'lossy-conversion', path: `${at}.$defs.Node.additionalProperties`, message: closed },
  ];
}

function encode(request: LlmRequest, context: CodecContext = {}): { body: Record<string, unknown>; warnings: LlmWarning[] } {
  const warnings: LlmWarning[] = [];
  const body = openaiResponses.request.encode(request, { ...context, warn: (warning) => warnings.push(warning) }) as unknown as Record<string, unknown>;
  return { body, warnings };
}

describe('strict tool and response schemas (Responses)', () => {
  it('strictTools sends every function tool strict, its schema rewritten, each change of meaning warned at its path', () => {
    const { body, warnings } = encode(
      {
        ...base,
        tools: [
          { type: 'function', name: 'search', parameters: loose },
          { type: 'function', name: 'now' },
        ],
      },
      { strictTools: true },
    );
    expect(body.tools).toEqual([
      { type: 'function', name: 'search', parameters: strict, strict: true },
      { type: 'function', name: 'now', parameters: { type: 'object', properties: {}, additionalProperties: false, required: [] }, strict: true },
    ]);
    expect(warnings).toEqual(looseWarnings('tools[0].parameters'));
  });

  it('a tool the client marked strict goes strict without the option; others keep strict: false', () => {
    const { body, warnings } = encode({
      ...base,
      tools: [
        { type: 'function', name: 'search', parameters: loose, strict: true },
        { type: 'function', name: 'lookup', parameters: loose },
      ],
    });
    expect(body.tools).toEqual([
      { type: 'function', name: 'search', parameters: strict, strict: true },
      { type: 'function', name: 'lookup', parameters: loose, strict: false },
    ]);
    expect(warnings).toEqual(looseWarnings('tools[0].parameters'));
  });

  it('a Responses tool sent with strict: null goes out strict: true under strictTools', () => {
    const request = openaiResponses.request.decode({
      model: 'gpt-5',
      input: 'Find it',
      tools: [{ type: 'function', name: 'now', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, strict: null }],
    });
    expect(encode(request, { strictTools: true }).body.tools).toEqual([
      { type: 'function', name: 'now', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, strict: true },
    ]);
  });

  it('strictTools sends a named text.format schema strict too', () => {
    const { body, warnings } = encode({ ...base, responseFormat: { type: 'json-schema', name: 'result', schema: loose } }, { strictTools: true });
    expect(body.text).toEqual({ format: { type: 'json_schema', name: 'result', schema: strict, strict: true } });
    expect(warnings).toEqual(looseWarnings('responseFormat.schema'));
  });

  it('an invalid schema is a 400 naming the tool and the path before anything is sent', () => {
    const bad: LlmRequest = {
      ...base,
      tools: [
        { type: 'function', name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query', 2] }, strict: true },
      ],
    };
    expect((thrown(() => encode(bad)) as LlmError).toJSON()).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'tool "search": parameters.required[1]: expected a string, got 2',
      path: 'tools[0].parameters.required[1]',
    });
  });

  it('a Gemini responseJsonSchema reaches Responses as a strict text.format named "response"', () => {
    const request = gemini.request.decode(
      {
        contents: [{ role: 'user', parts: [{ text: 'Find it' }] }],
        generationConfig: {
          responseMimeType: 'application/json',
          responseJsonSchema: { type: 'object', properties: { title: { type: 'string' }, year: { type: 'integer' } }, required: ['title'] },
        },
      },
      { model: 'gemini-2.5-flash' },
    );
    const { body, warnings } = encode({ ...request, model: 'gpt-5' });
    expect(body).toEqual({
      model: 'gpt-5',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Find it' }] }],
      text: {
        format: {
          type: 'json_schema',
          name: 'response',
          schema: {
            type: 'object',
            properties: { title: { type: 'string' }, year: { type: ['integer', 'null'] } },
            required: ['title', 'year'],
            additionalProperties: false,
          },
          strict: true,
        },
      },
    });
    expect(warnings).toEqual([
      {
        code: 'lossy-conversion',
        path: 'responseFormat.schema.properties.year',
        message: 'optional property made required and nullable: strict mode requires every property',
      },
      {
        code: 'lossy-conversion',
        path: 'responseFormat.schema.additionalProperties',
        message: 'open object closed (additionalProperties: false): strict mode allows no undeclared properties',
      },
    ]);
  });
});
