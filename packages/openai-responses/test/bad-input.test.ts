// Bad input gives LlmError invalid_request naming the JSON path (never a TypeError), and every
// response status maps to a canonical finish reason and back.
import { LlmError, type LlmResponse } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const CASES: Array<[label: string, body: unknown, path: string, message: string]> = [
  ['body not an object', null, '$', '$: expected an object, got null'],
  ['input a number', { model: 'm', input: 5 }, 'input', 'input: expected an array, got 5'],
  ['input item null', { model: 'm', input: [null] }, 'input[0]', 'input[0]: expected an object, got null'],
  [
    'unknown role',
    { model: 'm', input: [{ type: 'message', role: 'wizard', content: 'x' }] },
    'input[0].role',
    'input[0].role: expected "user", "assistant", "system" or "developer", got "wizard"',
  ],
  [
    'function_call without call_id',
    { model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] },
    'input[0].call_id',
    'input[0].call_id: expected a string, got nothing',
  ],
  [
    'call_id a number',
    { model: 'm', input: [{ type: 'function_call_output', call_id: 3, output: 'x' }] },
    'input[0].call_id',
    'input[0].call_id: expected a string, got 3',
  ],
  [
    'reasoning summary a string',
    { model: 'm', input: [{ type: 'reasoning', summary: 'x' }] },
    'input[0].summary',
    'input[0].summary: expected an array, got "x"',
  ],
  ['function tool without name', { model: 'm', input: 'x', tools: [{ type: 'function' }] }, 'tools[0].name', 'tools[0].name: expected a string, got nothing'],
  [
    'max_output_tokens a string',
    { model: 'm', input: 'x', max_output_tokens: 'many' },
    'max_output_tokens',
    'max_output_tokens: expected a non-negative integer, got "many"',
  ],
  ['instructions a number', { model: 'm', input: 'x', instructions: 4 }, 'instructions', 'instructions: expected a string, got 4'],
];

describe('request.decode rejects bad input with the JSON path', () => {
  it.each(CASES)('%s', (_label, body, path, message) => {
    let error: unknown;
    try {
      openaiResponses.request.decode(body);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ kind: 'invalid_request', path, message });
  });

  it('invalid JSON in function_call arguments', () => {
    const body = { model: 'm', input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{bad' }] };
    expect(() => openaiResponses.request.decode(body)).toThrow(expect.objectContaining({ kind: 'invalid_request', path: 'input[0].arguments' }));
  });

  it('accepts empty arguments and free-form custom tool input, and keeps them as sent', () => {
    const body = {
      model: 'm',
      input: [
        { type: 'function_call', call_id: 'a', name: 'f', arguments: '' },
        { type: 'custom_tool_call', call_id: 'b', name: 'apply_patch', input: '*** Begin Patch' },
      ],
    };
    expect(openaiResponses.request.encode(openaiResponses.request.decode(structuredClone(body)))).toEqual(body);
  });
});

describe('every status', () => {
  const base = { id: 'resp_1', object: 'response', created_at: 1, model: 'gpt-5' };
  const message = (status: string, part: Record<string, unknown>) => ({ type: 'message', id: 'msg_1', status, role: 'assistant', content: [part] });
  const text = { type: 'output_text', text: 'par', annotations: [] };
  const CASES: Array<[label: string, body: Record<string, unknown>, reason: string, raw: string]> = [
    ['completed with text', { ...base, status: 'completed', output: [message('completed', text)] }, 'stop', 'completed'],
    [
      '#16 completed with a function call',
      { ...base, status: 'completed', output: [{ type: 'function_call', id: 'fc_1', status: 'completed', call_id: 'c', name: 'f', arguments: '{}' }] },
      'tool_calls',
      'completed',
    ],
    [
      'completed with an MCP approval request',
      { ...base, status: 'completed', output: [{ type: 'mcp_approval_request', id: 'mcpr_1', server_label: 'fs', name: 'rm', arguments: '{}' }] },
      'tool_calls',
      'completed',
    ],
    ['completed with a refusal', { ...base, status: 'completed', output: [message('completed', { type: 'refusal', refusal: 'no' })] }, 'refusal', 'completed'],
    [
      'incomplete: max_output_tokens',
      { ...base, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [message('incomplete', text)] },
      'length',
      'incomplete:max_output_tokens',
    ],
    [
      'incomplete: content_filter',
      { ...base, status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: [message('incomplete', text)] },
      'content_filter',
      'incomplete:content_filter',
    ],
    ['failed with its error', { ...base, status: 'failed', error: { code: 'server_error', message: 'boom' }, output: [] }, 'error', 'failed'],
    ['cancelled', { ...base, status: 'cancelled', output: [] }, 'other', 'cancelled'],
    ['queued (background)', { ...base, status: 'queued', background: true, output: [] }, 'pause', 'queued'],
    ['in_progress (background)', { ...base, status: 'in_progress', background: true, output: [] }, 'pause', 'in_progress'],
  ];
  it.each(CASES)('%s', (_label, body, reason, raw) => {
    const decoded = openaiResponses.response.decode(structuredClone(body));
    expect(decoded.choices[0]).toMatchObject({ finishReason: reason, rawFinishReason: raw });
    expect(openaiResponses.response.encode(decoded)).toEqual(body);
  });

  it('canonical reasons from other protocols become the status the API would give', () => {
    const answer = (finishReason: LlmResponse['choices'][number]['finishReason']): LlmResponse => ({
      id: 'resp_1',
      model: 'gpt-5',
      created: 1,
      choices: [{ index: 0, content: [], finishReason }],
    });
    const statusOf = (response: LlmResponse) => {
      const { status, incomplete_details } = openaiResponses.response.encode(response) as { status: string; incomplete_details?: unknown };
      return { status, incomplete_details };
    };
    expect(statusOf(answer('stop'))).toEqual({ status: 'completed', incomplete_details: null });
    expect(statusOf(answer('tool_calls'))).toEqual({ status: 'completed', incomplete_details: null });
    expect(statusOf(answer('length'))).toEqual({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(statusOf(answer('content_filter'))).toEqual({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
    expect(statusOf(answer('error'))).toEqual({ status: 'failed', incomplete_details: null });
    expect(statusOf(answer('pause'))).toEqual({ status: 'incomplete', incomplete_details: null });
    expect(statusOf(answer('context_exceeded'))).toEqual({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(statusOf(answer('other'))).toEqual({ status: 'completed', incomplete_details: null });
    expect(statusOf(answer('refusal'))).toEqual({ status: 'completed', incomplete_details: null });
  });
});
