import { LlmError, type LlmRequest, type LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const { decode, encode } = openaiResponses.request;
const P = 'openai-responses';

describe('request.decode', () => {
  it('turns instructions and a string input into a system and a string user message', () => {
    expect(decode({ model: 'gpt-5', instructions: 'Be brief.', input: 'Hi' })).toEqual({
      model: 'gpt-5',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }], stringContent: true },
      ],
    });
  });

  it('decodes items: reasoning, function calls and outputs, sampling, tools, text format', () => {
    const wire = {
      model: 'gpt-5',
      input: [
        { role: 'developer', content: 'rules' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'weather?' }] },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'think' }], encrypted_content: 'ENC' },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
      tools: [
        { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, strict: true },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      temperature: 0.2,
      max_output_tokens: 100,
      reasoning: { effort: 'low', summary: 'auto' },
      text: { format: { type: 'json_object' }, verbosity: 'low' },
      store: false,
      include: ['reasoning.encrypted_content'],
    };
    const expected: LlmRequest = {
      model: 'gpt-5',
      messages: [
        { role: 'system', developer: true, content: [{ type: 'text', text: 'rules' }], extensions: { [P]: { $item: true, $string: true } } },
        { role: 'user', content: [{ type: 'text', text: 'weather?' }], extensions: { [P]: { type: 'message', $item: true } } },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'think', format: 'summary', id: 'rs_1', signature: 'ENC', origin: { protocol: P } },
            { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', extensions: { [P]: { id: 'fc_1' } } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: 'sunny' }] },
      ],
      tools: [
        { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, strict: true },
      ],
      toolChoice: { type: 'tool', name: 'get_weather' },
      sampling: { temperature: 0.2 },
      maxOutputTokens: 100,
      reasoning: { effort: 'low', summary: 'auto' },
      responseFormat: { type: 'json' },
      verbosity: 'low',
      store: false,
      extensions: { [P]: { include: ['reasoning.encrypted_content'] } },
    };
    expect(decode(wire)).toEqual(expected);
    expect(encode(decode(wire))).toEqual(wire);
  });

  it('decodes previous_response_id and keeps conversation in the bag', () => {
    const wire = { model: 'm', input: [], previous_response_id: 'resp_1', conversation: { id: 'conv_1' } };
    expect(decode(wire)).toEqual({
      model: 'm',
      messages: [],
      previousResponseId: 'resp_1',
      extensions: { [P]: { conversation: { id: 'conv_1' } } },
    });
    expect(encode(decode(wire))).toEqual(wire);
  });

  it('keeps built-in tool items and item_reference whole as provider parts; an MCP approval is user content', () => {
    const web = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } };
    const reference = { type: 'item_reference', id: 'msg_9' };
    const approval = { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true };
    const wire = { model: 'm', input: [reference, web, approval] };
    expect(decode(wire).messages).toEqual([
      { role: 'user', content: [{ type: 'provider', protocol: P, value: reference }] },
      { role: 'assistant', content: [{ type: 'provider', protocol: P, value: web }] },
      { role: 'user', content: [{ type: 'mcp-approval-response', approvalRequestId: 'mcpr_1', approve: true }] },
    ]);
    expect(encode(decode(wire))).toEqual(wire);
  });

  it('decodes custom tool calls with freeform input and array outputs (Codex apply_patch)', () => {
    const wire = {
      model: 'gpt-5-codex',
      input: [
        { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'done' }] },
      ],
      tools: [{ type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } }],
    };
    expect(decode(wire).messages).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'apply_patch', arguments: '*** Begin Patch', freeform: true }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'done' }], extensions: { [P]: { $custom: true } } }],
      },
    ]);
    expect(encode(decode(wire))).toEqual(wire);
  });

  it('#3 keeps reasoning items with encrypted_content on a same-protocol round trip', () => {
    const item = { type: 'reasoning', id: 'rs_a', summary: [], encrypted_content: 'gAAAA_blob' };
    const wire = { model: 'm', input: [item, { type: 'function_call', call_id: 'k', name: 'f', arguments: '{}' }] };
    const request = decode(wire);
    expect(request.messages[0]?.content[0]).toEqual({
      type: 'reasoning',
      text: '',
      format: 'summary',
      id: 'rs_a',
      signature: 'gAAAA_blob',
      origin: { protocol: P },
    });
    expect(encode(request)).toEqual(wire);
  });

  it('#8 keeps raw reasoning_text content as well as the summaries', () => {
    const item = {
      type: 'reasoning',
      id: 'rs_b',
      summary: [{ type: 'summary_text', text: 'short' }],
      content: [{ type: 'reasoning_text', text: 'long raw chain' }],
    };
    const request = decode({ model: 'm', input: [item] });
    const part = request.messages[0]?.content[0];
    expect(part).toMatchObject({ type: 'reasoning', text: 'long raw chain', format: 'full', id: 'rs_b' });
    expect(encode(request)).toEqual({ model: 'm', input: [item] });
  });

  it('round-trips a reasoning item with several summary parts exactly', () => {
    const item = {
      type: 'reasoning',
      id: 'rs_c',
      summary: [
        { type: 'summary_text', text: 'one' },
        { type: 'summary_text', text: 'two' },
      ],
    };
    const request = decode({ model: 'm', input: [item] });
    expect(request.messages[0]?.content[0]).toMatchObject({ text: 'one\n\ntwo', format: 'summary' });
    expect(encode(request)).toEqual({ model: 'm', input: [item] });
  });

  it('#21/#42 with store:false replays encrypted_content inline and never a bare reasoning id', () => {
    const warnings: LlmWarning[] = [];
    const request: LlmRequest = {
      model: 'm',
      store: false,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: '', id: 'rs_bare' },
            { type: 'reasoning', text: 'sum', format: 'summary', id: 'rs_full', signature: 'ENC' },
            { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{}' },
          ],
        },
      ],
    };
    expect(encode(request, { warn: (warning) => warnings.push(warning) })).toEqual({
      model: 'm',
      store: false,
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
        { type: 'reasoning', id: 'rs_full', summary: [{ type: 'summary_text', text: 'sum' }], encrypted_content: 'ENC' },
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
      ],
    });
    expect(warnings.map((warning) => [warning.code, warning.path])).toEqual([['dropped-part', 'messages[1].content[0]']]);
  });

  it('#42 a replayed reasoning item with encrypted_content null is dropped when store is false', () => {
    const request = decode({ model: 'm', store: false, input: [{ type: 'reasoning', id: 'rs_x', summary: [], encrypted_content: null }] });
    expect(encode(request)).toEqual({ model: 'm', store: false, input: [] });
  });

  it('#39 encodes each tool call once', () => {
    const wire = {
      model: 'm',
      input: [
        { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
        { type: 'function_call', call_id: 'b', name: 'g', arguments: '{}' },
      ],
    };
    const encoded = encode(decode(wire));
    expect(encoded.input).toEqual(wire.input);
  });

  it('drops foreign reasoning state and reports it', () => {
    const warnings: LlmWarning[] = [];
    const request: LlmRequest = {
      model: 'm',
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 't', signature: 'sig', origin: { protocol: 'claude' } },
            { type: 'text', text: 'ok' },
          ],
        },
      ],
    };
    expect(encode(request, { warn: (warning) => warnings.push(warning) }).input).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok', annotations: [] }] },
    ]);
    expect(warnings).toEqual([
      { code: 'foreign-state', path: 'messages[0].content[0]', message: 'provider state issued by claude was not replayed to openai-responses', protocol: P },
    ]);
  });

  it('reports what Responses cannot say', () => {
    const warnings: LlmWarning[] = [];
    encode({ model: 'm', messages: [], stop: ['x'], sampling: { seed: 1 } }, { warn: (warning) => warnings.push(warning) });
    expect(warnings.map((warning) => warning.path)).toEqual(['sampling.seed', 'stop']);
  });

  it('encodes canonical function tools flat with strict false unless asked', () => {
    expect(
      encode({ model: 'm', messages: [], tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }], toolChoice: { type: 'tool', name: 'f' } }),
    ).toEqual({
      model: 'm',
      input: [],
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: false }],
      tool_choice: { type: 'function', name: 'f' },
    });
  });

  it('decodes images and files', () => {
    const wire = {
      model: 'm',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: 'https://x/y.png', detail: 'high' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,AAAA', filename: 'a.pdf' },
            { type: 'input_file', file_id: 'file-1' },
          ],
        },
      ],
    };
    expect(decode(wire).messages[0]?.content).toEqual([
      { type: 'image', source: { kind: 'url', url: 'https://x/y.png' }, detail: 'high' },
      { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'AAAA' }, filename: 'a.pdf' },
      { type: 'file', source: { kind: 'file', fileId: 'file-1', provider: P } },
    ]);
    expect(encode(decode(wire))).toEqual(wire);
  });
});

describe('request: unmodelled members of reasoning and text', () => {
  it('round trip exactly, names starting with $ included (they are wire fields, not bookkeeping)', () => {
    const wire = {
      model: 'gpt-5',
      input: 'hi',
      reasoning: { effort: 'low', context: 'keep', $x: 1 },
      text: { verbosity: 'low', $y: 2 },
    };
    expect(openaiResponses.request.encode(openaiResponses.request.decode(wire))).toEqual(wire);
  });
});

describe('request.decode rejects bad input with a JSON path', () => {
  const cases: Array<[unknown, string]> = [
    [null, '$'],
    [[], '$'],
    [{ model: 1, input: 'x' }, 'model'],
    [{ model: 'm', input: 5 }, 'input'],
    [{ model: 'm', input: [7] }, 'input[0]'],
    [{ model: 'm', input: [{ role: 'tool', content: 'x' }] }, 'input[0].role'],
    [{ model: 'm', input: [{ role: 'user', content: [{ type: 'input_text', text: 3 }] }] }, 'input[0].content[0].text'],
    [{ model: 'm', input: [{ role: 'user', content: [{ type: 'bogus' }] }] }, 'input[0].content[0]'],
    [{ model: 'm', input: [{ type: 'function_call', call_id: 'a', name: 'f' }] }, 'input[0].arguments'],
    [{ model: 'm', input: [{ type: 'reasoning', id: 'r', summary: 'no' }] }, 'input[0].summary'],
    [{ model: 'm', input: [{ type: 'function_call_output', call_id: 'a', output: 1 }] }, 'input[0].output'],
    [{ model: 'm', input: [], tools: [{ type: 'function' }] }, 'tools[0].name'],
    [{ model: 'm', input: [], tool_choice: 'sometimes' }, 'tool_choice'],
    [{ model: 'm', input: [], temperature: 'hot' }, 'temperature'],
    [{ model: 'm', input: [], reasoning: { effort: 'huge' } }, 'reasoning.effort'],
    [{ model: 'm', input: [], metadata: { a: 1 } }, 'metadata.a'],
    [{ model: 'm', input: [], text: { format: { type: 'json_schema', schema: 3 } } }, 'text.format.schema'],
  ];
  it.each(cases)('%j -> %s', (wire, path) => {
    let thrown: unknown;
    try {
      decode(wire);
    } catch (error) {
      thrown = error;
    }
    expect(LlmError.isInstance(thrown)).toBe(true);
    expect((thrown as LlmError).kind).toBe('invalid_request');
    expect((thrown as LlmError).path).toBe(path);
  });
});

describe('max_output_tokens below the API floor of 16', () => {
  const text = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Q' }] }];
  it('is raised to 16 when it came from another protocol, reported', () => {
    const warnings: LlmWarning[] = [];
    const body = openaiResponses.request.encode({ model: 'gpt-5', messages: text, maxOutputTokens: 1 }, { warn: (warning) => warnings.push(warning) });
    expect(body.max_output_tokens).toBe(16);
    expect(warnings).toEqual([
      {
        code: 'lossy-conversion',
        path: 'maxOutputTokens',
        message: 'an output limit of 1 was sent as 16, the least max_output_tokens Responses takes',
        protocol: 'openai-responses',
      },
    ]);
    expect(openaiResponses.request.encode({ model: 'gpt-5', messages: text, maxOutputTokens: 16 }).max_output_tokens).toBe(16);
  });
  it("goes back as sent when it is a Responses client's own", () => {
    const body = { model: 'gpt-5', input: 'Q', max_output_tokens: 5 };
    expect(openaiResponses.request.encode(openaiResponses.request.decode(body))).toEqual(body);
  });
});

describe('reasoning effort max', () => {
  it("goes as xhigh (OpenAI's highest level) when another protocol sent it, reported; a Responses client's own goes back as sent", () => {
    const warnings: LlmWarning[] = [];
    const body = openaiResponses.request.encode(
      { model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Q' }] }], reasoning: { effort: 'max' } },
      { warn: (warning) => warnings.push(warning) },
    );
    expect(body.reasoning).toEqual({ effort: 'xhigh' });
    expect(warnings.map(({ code, path, message }) => `${code} ${path}: ${message}`)).toEqual(['lossy-conversion reasoning.effort: effort max sent as xhigh']);
    const own = { model: 'gpt-5', input: 'Q', reasoning: { effort: 'max' } };
    expect(openaiResponses.request.encode(openaiResponses.request.decode(own))).toEqual(own);
  });
});
