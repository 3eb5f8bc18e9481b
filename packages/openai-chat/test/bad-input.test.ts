// Bad input gives LlmError invalid_request naming the JSON path (never a TypeError), and every
// finish_reason value maps both ways.
import { LlmError, type LlmStreamEvent } from '@llm/core';
import { runTransform } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const user = { role: 'user', content: 'x' };
const call = (fn: Record<string, unknown>) => ({
  model: 'm',
  messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: fn }] }],
});

const CASES: Array<[label: string, body: unknown, path: string, message: string]> = [
  ['body not an object', null, '$', '$: expected an object, got null'],
  ['model not a string', { model: 1, messages: [] }, 'model', 'model: expected a string, got 1'],
  ['messages missing', { model: 'm' }, 'messages', 'messages: expected an array, got nothing'],
  ['messages an object', { model: 'm', messages: {} }, 'messages', 'messages: expected an array, got an object'],
  ['message null', { model: 'm', messages: [null] }, 'messages[0]', 'messages[0]: expected an object, got null'],
  ['unknown role', { model: 'm', messages: [{ role: 'wizard', content: 'x' }] }, 'messages[0].role', 'messages[0].role: expected a message role, got "wizard"'],
  ['content a number', { model: 'm', messages: [{ role: 'user', content: 5 }] }, 'messages[0].content', 'messages[0].content: expected an array, got 5'],
  [
    'image url a number',
    { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 3 } }] }] },
    'messages[0].content[0].image_url.url',
    'messages[0].content[0].image_url.url: expected a string, got 3',
  ],
  [
    'unknown part type',
    { model: 'm', messages: [{ role: 'user', content: [{ type: 'hologram' }] }] },
    'messages[0].content[0].type',
    'messages[0].content[0].type: expected "text", "image_url", "input_audio" or "file", got "hologram"',
  ],
  [
    'tool call without name',
    call({ arguments: '{}' }),
    'messages[0].tool_calls[0].function.name',
    'messages[0].tool_calls[0].function.name: expected a string, got nothing',
  ],
  [
    'tool message without id',
    { model: 'm', messages: [{ role: 'tool', content: 'x' }] },
    'messages[0].tool_call_id',
    'messages[0].tool_call_id: expected a string, got nothing',
  ],
  [
    'tool name a number',
    { model: 'm', messages: [user], tools: [{ type: 'function', function: { name: 3 } }] },
    'tools[0].function.name',
    'tools[0].function.name: expected a string, got 3',
  ],
  ['temperature a string', { model: 'm', messages: [user], temperature: 'hot' }, 'temperature', 'temperature: expected a number, got "hot"'],
  ['tool_choice a number', { model: 'm', messages: [user], tool_choice: 7 }, 'tool_choice', 'tool_choice: expected an object, got 7'],
  [
    'json_schema format without schema',
    { model: 'm', messages: [user], response_format: { type: 'json_schema' } },
    'response_format.json_schema',
    'response_format.json_schema: expected an object, got nothing',
  ],
  [
    'file part with neither id nor data',
    { model: 'm', messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: null } }] }] },
    'messages[0].content[0].file.file_id',
    'messages[0].content[0].file.file_id: expected a string (or file_data), got nothing',
  ],
  [
    'system part not text',
    { model: 'm', messages: [{ role: 'system', content: [{ type: 'image_url' }] }] },
    'messages[0].content[0].type',
    'messages[0].content[0].type: expected "text", got "image_url"',
  ],
  ['stop item a number', { model: 'm', messages: [user], stop: ['a', 2] }, 'stop[1]', 'stop[1]: expected a string, got 2'],
  [
    'tool parameters an array',
    { model: 'm', messages: [user], tools: [{ type: 'function', function: { name: 'f', parameters: [] } }] },
    'tools[0].function.parameters',
    'tools[0].function.parameters: expected an object, got an array',
  ],
  [
    'allowed_tools mode',
    { model: 'm', messages: [user], tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'any', tools: [] } } },
    'tool_choice.allowed_tools.mode',
    'tool_choice.allowed_tools.mode: expected "auto" or "required", got "any"',
  ],
  [
    'allowed tool not an object',
    { model: 'm', messages: [user], tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [3] } } },
    'tool_choice.allowed_tools.tools[0]',
    'tool_choice.allowed_tools.tools[0]: expected an object, got 3',
  ],
  [
    'reasoning_effort unknown',
    { model: 'm', messages: [user], reasoning_effort: 'extreme' },
    'reasoning_effort',
    'reasoning_effort: expected a reasoning effort, got "extreme"',
  ],
];

describe('request.decode rejects bad input with the JSON path', () => {
  it.each(CASES)('%s', (_label, body, path, message) => {
    const error = (() => {
      try {
        openaiChat.request.decode(body);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ kind: 'invalid_request', path, message });
  });

  it('invalid JSON in tool-call arguments (and in legacy function_call)', () => {
    expect(() => openaiChat.request.decode(call({ name: 'f', arguments: '{bad' }))).toThrow(
      expect.objectContaining({ kind: 'invalid_request', path: 'messages[0].tool_calls[0].function.arguments' }),
    );
    const legacy = { model: 'm', messages: [{ role: 'assistant', content: null, function_call: { name: 'f', arguments: '[1,' } }] };
    expect(() => openaiChat.request.decode(legacy)).toThrow(expect.objectContaining({ kind: 'invalid_request', path: 'messages[0].function_call.arguments' }));
  });

  it('accepts empty arguments and any custom tool input, and keeps them as sent', () => {
    const body = {
      model: 'm',
      messages: [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'f', arguments: '' } },
            { id: 'b', type: 'custom', custom: { name: 'patch', input: '*** not json' } },
          ],
        },
      ],
    };
    expect(openaiChat.request.encode(openaiChat.request.decode(structuredClone(body)))).toEqual(body);
  });

  it('an answer with cut-off arguments still decodes (answers are not validated as JSON)', () => {
    const answer = openaiChat.response.decode({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }] },
          finish_reason: 'length',
          logprobs: null,
        },
      ],
    });
    expect(answer.choices[0]?.content).toEqual([{ type: 'tool-call', id: 'c', name: 'f', arguments: '{"a":' }]);
  });
});

describe('every finish_reason', () => {
  const answer = (finish: string) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: 'x', refusal: null }, finish_reason: finish, logprobs: null }],
  });
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['content_filter', 'content_filter'],
  ])('%s decodes to %s and encodes back as sent', (wire, canonical) => {
    const decoded = openaiChat.response.decode(answer(wire));
    expect(decoded.choices[0]).toMatchObject({ finishReason: canonical, rawFinishReason: wire });
    expect(openaiChat.response.encode(decoded)).toEqual(answer(wire));
  });

  it('a value outside the API\'s vocabulary (a compatible server\'s "eos") decodes to other and is written as stop', () => {
    const decoded = openaiChat.response.decode(answer('eos'));
    expect(decoded.choices[0]).toMatchObject({ finishReason: 'other', rawFinishReason: 'eos' });
    expect(openaiChat.response.encode(decoded)).toEqual(answer('stop'));
  });
});

describe('#15 a `stop` on a turn that called tools is tool_calls (and stop with a refusal is refusal)', () => {
  const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] });
  const streamed = async (payloads: unknown[]) =>
    runTransform<unknown, LlmStreamEvent>(openaiChat.stream.decode(), [...payloads.map((payload) => ({ data: JSON.stringify(payload) })), { data: '[DONE]' }]);

  it('in an answer, written back as stop', () => {
    const body = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking.',
            refusal: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
    };
    const decoded = openaiChat.response.decode(structuredClone(body));
    expect(decoded.choices[0]).toMatchObject({ finishReason: 'tool_calls', rawFinishReason: 'stop' });
    expect(openaiChat.response.encode(decoded)).toEqual(body);
  });

  it('in a stream', async () => {
    const events = await streamed([
      chunk({ role: 'assistant', content: 'Checking.' }),
      chunk({ tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
      chunk({}, 'stop'),
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls', rawReason: 'stop' });
    const refused = await streamed([chunk({ role: 'assistant', refusal: 'No.' }), chunk({}, 'stop')]);
    expect(refused.at(-1)).toEqual({ type: 'finish', reason: 'refusal', rawReason: 'stop' });
  });
});
