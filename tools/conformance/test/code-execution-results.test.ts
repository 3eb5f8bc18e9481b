// Hosted code-execution runs (the code the model ran and what it gave) across the three protocols
// that host code execution: Gemini `executableCode` + `codeExecutionResult`, Claude
// `server_tool_use` + `code_execution_tool_result` (and the bash pair), Responses
// `code_interpreter_call`. Answers JSON and streamed, request history, Chat's degrade, and
// same-protocol identity, with exact payloads and the losses each direction reports.
import { accumulateStream, type Codec } from '@llm/core';
import { claude } from '@llm/claude';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { bridge } from '@llm/router';
import { describe, expect, it } from 'vitest';
import { answer, streamed, translatedRequest } from './translated-answers.js';

/** A request translated from `client` to `upstream`, and the warnings. */
function translated(client: Codec, upstream: Codec, body: unknown, options: object = {}): { body: unknown; warnings: string[] } {
  const { body: sent, warnings } = translatedRequest(client, upstream, body, options);
  return { body: sent, warnings: warnings.map((warning) => `${warning.code}@${warning.path}`) };
}

/** The Responses stream events of the item `id`, without their sequence numbers. */
function itemEvents(events: Record<string, unknown>[], id: string): Record<string, unknown>[] {
  return events
    .filter((event) => event.item_id === id || (event.item as { id?: string } | undefined)?.id === id)
    .map(({ sequence_number: _sequence, ...rest }) => rest);
}

/** The streamed events of a finished `code_interpreter_call` item, as a Responses client receives them. */
function codeInterpreterEvents(item: Record<string, unknown>, outputIndex: number): Record<string, unknown>[] {
  const base = { item_id: item.id, output_index: outputIndex };
  const { container_id: _container, ...rest } = item;
  const added = { ...rest, status: 'in_progress', code: '', outputs: null, ...(item.container_id ? { container_id: item.container_id } : {}) };
  return [
    { type: 'response.output_item.added', output_index: outputIndex, item: added },
    { type: 'response.code_interpreter_call.in_progress', ...base },
    { type: 'response.code_interpreter_call_code.delta', ...base, delta: item.code },
    { type: 'response.code_interpreter_call_code.done', ...base, code: item.code },
    { type: 'response.code_interpreter_call.interpreting', ...base },
    { type: 'response.code_interpreter_call.completed', ...base },
    { type: 'response.output_item.done', output_index: outputIndex, item },
  ];
}

const geminiAnswer = {
  candidates: [
    {
      content: {
        parts: [
          { text: 'Let me compute.' },
          { executableCode: { language: 'PYTHON', code: 'print(2 ** 10)' } },
          { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1024\n' } },
          { text: '2 ** 10 is 1024.' },
        ],
        role: 'model',
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'g1',
};

const claudeAnswer = {
  id: 'msg_code',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [
    { type: 'server_tool_use', id: 'srvtoolu_01', name: 'code_execution', input: { code: 'print(6 * 7)' } },
    {
      type: 'code_execution_tool_result',
      tool_use_id: 'srvtoolu_01',
      content: { type: 'code_execution_result', stdout: '42\n', stderr: '', return_code: 0, content: [] },
    },
    { type: 'server_tool_use', id: 'srvtoolu_02', name: 'bash_code_execution', input: { command: 'ls /nope' } },
    {
      type: 'bash_code_execution_tool_result',
      tool_use_id: 'srvtoolu_02',
      content: { type: 'bash_code_execution_result', stdout: '', stderr: 'ls: /nope: No such file', return_code: 2, content: [] },
    },
    { type: 'text', text: 'It is 42.' },
  ],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 20 },
};

const responsesAnswer = {
  id: 'resp_1',
  object: 'response',
  created_at: 1750000000,
  status: 'completed',
  model: 'gpt-5',
  output: [
    {
      id: 'ci_1',
      type: 'code_interpreter_call',
      status: 'completed',
      code: 'print(sum(range(5)))',
      container_id: 'cntr_1',
      outputs: [{ type: 'logs', logs: '10\n' }],
    },
    { type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'The sum is 10.', annotations: [] }] },
  ],
  usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
};

describe('a Gemini answer with code and its result', () => {
  // Gemini sent no ids: Claude's blocks get one made up, the result the id of its code.
  const claudeBlocks = [
    { type: 'text', text: 'Let me compute.' },
    { type: 'server_tool_use', id: 'srvtoolu_code_0', name: 'code_execution', input: { code: 'print(2 ** 10)' } },
    {
      type: 'code_execution_tool_result',
      tool_use_id: 'srvtoolu_code_0',
      content: { type: 'code_execution_result', stdout: '1024\n', stderr: '', return_code: 0, content: [] },
    },
    { type: 'text', text: '2 ** 10 is 1024.' },
  ];

  it('reaches Claude clients as server_tool_use + code_execution_tool_result, the code streamed as input_json_delta', async () => {
    const { body, warnings } = answer(claude, gemini, geminiAnswer);
    expect(body).toEqual({
      id: 'g1',
      type: 'message',
      role: 'assistant',
      model: 'gemini-2.5-flash',
      content: claudeBlocks,
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(warnings).toEqual([]);
    const stream = await streamed(claude, gemini, geminiAnswer);
    expect(stream.events).toEqual([
      {
        type: 'message_start',
        message: {
          id: 'g1',
          type: 'message',
          role: 'assistant',
          model: 'gemini-2.5-flash',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me compute.' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { ...claudeBlocks[1], input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"code":"print(2 ** 10)"}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: claudeBlocks[2] },
      { type: 'content_block_stop', index: 2 },
      { type: 'content_block_start', index: 3, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: '2 ** 10 is 1024.' } },
      { type: 'content_block_stop', index: 3 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { input_tokens: 5, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
      { type: 'message_stop' },
    ]);
    expect(stream.warnings).toEqual([]);
  });

  // One item for code and result; no container existed, so none is named.
  const codeItem = { id: 'ci_g1_1', type: 'code_interpreter_call', status: 'completed', code: 'print(2 ** 10)', outputs: [{ type: 'logs', logs: '1024\n' }] };

  it('reaches Responses clients as one code_interpreter_call item, streamed with the code_interpreter_call events', async () => {
    const { body, warnings } = answer(openaiResponses, gemini, geminiAnswer);
    expect(body.output).toEqual([
      { type: 'message', id: 'msg_g1_0', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Let me compute.', annotations: [] }] },
      codeItem,
      {
        type: 'message',
        id: 'msg_g1_3',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: '2 ** 10 is 1024.', annotations: [] }],
      },
    ]);
    expect(warnings).toEqual([]);
    const stream = await streamed(openaiResponses, gemini, geminiAnswer);
    expect(itemEvents(stream.events, 'ci_g1_1')).toEqual(codeInterpreterEvents(codeItem, 1));
    const completed = stream.events.find((event) => event.type === 'response.completed')?.response as { output: unknown[] };
    expect(completed.output[1]).toEqual(codeItem);
    expect(stream.warnings).toEqual([]);
  });

  it('reaches Chat clients as the answer text only, each dropped part reported (JSON and stream)', async () => {
    const { body, warnings } = answer(openaiChat, gemini, geminiAnswer);
    expect(body.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'Let me compute.2 ** 10 is 1024.', refusal: null }, finish_reason: 'stop', logprobs: null },
    ]);
    expect(warnings).toEqual(['dropped-part@choices[0].content[1]', 'dropped-part@choices[0].content[2]']);
    const stream = await streamed(openaiChat, gemini, geminiAnswer);
    expect(stream.events.map((event) => (event.choices as Array<{ delta: unknown; finish_reason: unknown }>)[0])).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
      { index: 0, delta: { content: 'Let me compute.' }, finish_reason: null },
      { index: 0, delta: { content: '2 ** 10 is 1024.' }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'stop' },
    ]);
    expect(stream.warnings).toEqual(['dropped-part@blocks[1]', 'dropped-part@blocks[2]']);
  });
});

describe('a Claude code-execution answer (Python, then a failing bash command)', () => {
  const geminiParts = [
    { executableCode: { language: 'PYTHON', code: 'print(6 * 7)', id: 'srvtoolu_01' } },
    { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n', id: 'srvtoolu_01' } },
    { executableCode: { language: 'BASH', code: 'ls /nope', id: 'srvtoolu_02' } },
    // Gemini has one output stream: standard error is the output of a failed run.
    { codeExecutionResult: { outcome: 'OUTCOME_FAILED', output: 'ls: /nope: No such file', id: 'srvtoolu_02' } },
    { text: 'It is 42.' },
  ];

  it('reaches Gemini clients as executableCode + codeExecutionResult parts; bash and the exit status reported (JSON and stream)', async () => {
    const { body, warnings } = answer(gemini, claude, claudeAnswer);
    expect(body).toEqual({
      candidates: [{ content: { parts: geminiParts, role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 20, totalTokenCount: 30 },
      modelVersion: 'claude-sonnet-4-5',
      responseId: 'msg_code',
    });
    expect(warnings).toEqual(['defaulted@max_tokens', 'lossy-conversion@choices[0].content[2].language', 'dropped-field@choices[0].content[3].returnCode']);
    const stream = await streamed(gemini, claude, claudeAnswer);
    const chunk = (part: unknown) => ({
      candidates: [{ content: { parts: [part], role: 'model' }, index: 0 }],
      modelVersion: 'claude-sonnet-4-5',
      responseId: 'msg_code',
    });
    expect(stream.events).toEqual([
      ...geminiParts.map(chunk),
      {
        candidates: [{ finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 20, totalTokenCount: 30 },
        modelVersion: 'claude-sonnet-4-5',
        responseId: 'msg_code',
      },
    ]);
    expect(stream.warnings).toEqual(['defaulted@max_tokens', 'lossy-conversion@blocks[2].language', 'dropped-field@blocks[3].returnCode']);
  });

  const pythonItem = { id: 'srvtoolu_01', type: 'code_interpreter_call', status: 'completed', code: 'print(6 * 7)', outputs: [{ type: 'logs', logs: '42\n' }] };
  const bashItem = {
    id: 'srvtoolu_02',
    type: 'code_interpreter_call',
    status: 'failed',
    code: 'ls /nope',
    outputs: [{ type: 'logs', logs: 'ls: /nope: No such file' }],
  };

  it('reaches Responses clients as code_interpreter_call items (the failed run `failed`); bash and the exit status reported', async () => {
    const { body, warnings } = answer(openaiResponses, claude, claudeAnswer);
    expect(body.output).toEqual([
      pythonItem,
      bashItem,
      { type: 'message', id: 'msg_msg_code_4', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'It is 42.', annotations: [] }] },
    ]);
    expect(warnings).toEqual(['defaulted@max_tokens', 'lossy-conversion@choices[0].content[2].language', 'dropped-field@choices[0].content[3].returnCode']);
    const stream = await streamed(openaiResponses, claude, claudeAnswer);
    expect(itemEvents(stream.events, 'srvtoolu_01')).toEqual(codeInterpreterEvents(pythonItem, 0));
    expect(itemEvents(stream.events, 'srvtoolu_02')).toEqual(codeInterpreterEvents(bashItem, 1));
    // Reported once, by the terminal event's response (at the answer's paths).
    expect(stream.warnings).toEqual(warnings);
  });
});

describe('a Responses code_interpreter_call answer', () => {
  const claudeBlocks = [
    { type: 'server_tool_use', id: 'ci_1', name: 'code_execution', input: { code: 'print(sum(range(5)))' } },
    {
      type: 'code_execution_tool_result',
      tool_use_id: 'ci_1',
      content: { type: 'code_execution_result', stdout: '10\n', stderr: '', return_code: 0, content: [] },
    },
    { type: 'text', text: 'The sum is 10.' },
  ];

  it('reaches Claude clients as server_tool_use + code_execution_tool_result (JSON and stream)', async () => {
    const { body, warnings } = answer(claude, openaiResponses, responsesAnswer);
    expect(body).toEqual({
      id: 'resp_1',
      type: 'message',
      role: 'assistant',
      model: 'gpt-5',
      content: claudeBlocks,
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(warnings).toEqual([]);
    const stream = await streamed(claude, openaiResponses, responsesAnswer);
    expect(stream.events.filter((event) => event.type === 'content_block_start' || event.type === 'content_block_delta')).toEqual([
      { type: 'content_block_start', index: 0, content_block: { ...claudeBlocks[0], input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"code":"print(sum(range(5)))"}' } },
      { type: 'content_block_start', index: 1, content_block: claudeBlocks[1] },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'The sum is 10.' } },
    ]);
    expect(stream.warnings).toEqual([]);
  });

  it('reaches Gemini clients as executableCode + codeExecutionResult paired by the item id (JSON and stream)', async () => {
    const parts = [
      { executableCode: { language: 'PYTHON', code: 'print(sum(range(5)))', id: 'ci_1' } },
      { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '10\n', id: 'ci_1' } },
      { text: 'The sum is 10.' },
    ];
    const { body, warnings } = answer(gemini, openaiResponses, responsesAnswer);
    expect(body).toEqual({
      candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'gpt-5',
      responseId: 'resp_1',
    });
    expect(warnings).toEqual([]);
    const stream = await streamed(gemini, openaiResponses, responsesAnswer);
    expect(stream.events.flatMap((event) => (event.candidates as Array<{ content?: { parts: unknown[] } }>)[0]!.content?.parts ?? [])).toEqual(parts);
    expect(stream.warnings).toEqual([]);
  });
});

describe('sandbox errors, timeouts and written files', () => {
  const claudeFailures = {
    ...claudeAnswer,
    content: [
      { type: 'server_tool_use', id: 'srvtoolu_03', name: 'code_execution', input: { code: 'while True: pass' } },
      {
        type: 'code_execution_tool_result',
        tool_use_id: 'srvtoolu_03',
        content: { type: 'code_execution_tool_result_error', error_code: 'execution_time_exceeded' },
      },
      { type: 'server_tool_use', id: 'srvtoolu_04', name: 'code_execution', input: { code: 'plot()' } },
      {
        type: 'code_execution_tool_result',
        tool_use_id: 'srvtoolu_04',
        content: { type: 'code_execution_result', stdout: '', stderr: '', return_code: 0, content: [{ type: 'code_execution_output', file_id: 'file_01' }] },
      },
    ],
  };

  it('a Claude timeout reaches Gemini as OUTCOME_DEADLINE_EXCEEDED with the error code as output; the written file is reported', () => {
    const { body, warnings } = answer(gemini, claude, claudeFailures);
    expect((body.candidates as Array<{ content: unknown }>)[0]!.content).toEqual({
      parts: [
        { executableCode: { language: 'PYTHON', code: 'while True: pass', id: 'srvtoolu_03' } },
        { codeExecutionResult: { outcome: 'OUTCOME_DEADLINE_EXCEEDED', output: 'execution_time_exceeded', id: 'srvtoolu_03' } },
        { executableCode: { language: 'PYTHON', code: 'plot()', id: 'srvtoolu_04' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '', id: 'srvtoolu_04' } },
      ],
      role: 'model',
    });
    expect(warnings).toEqual(['defaulted@max_tokens', 'dropped-field@choices[0].content[3].files[0]']);
  });

  it('a Claude timeout reaches Responses as a failed item; the written file is reported', () => {
    const { body, warnings } = answer(openaiResponses, claude, claudeFailures);
    expect(body.output).toEqual([
      {
        id: 'srvtoolu_03',
        type: 'code_interpreter_call',
        status: 'failed',
        code: 'while True: pass',
        outputs: [{ type: 'logs', logs: 'execution_time_exceeded' }],
      },
      { id: 'srvtoolu_04', type: 'code_interpreter_call', status: 'completed', code: 'plot()', outputs: [] },
    ]);
    expect(warnings).toEqual(['defaulted@max_tokens', 'dropped-field@choices[0].content[3].files[0]']);
  });

  it("a Gemini timeout reaches Claude as the sandbox's time-exceeded error; its output text is reported", () => {
    const timedOut = structuredClone(geminiAnswer);
    timedOut.candidates[0]!.content.parts[2] = { codeExecutionResult: { outcome: 'OUTCOME_DEADLINE_EXCEEDED', output: 'Deadline exceeded.' } };
    const { body, warnings } = answer(claude, gemini, timedOut);
    expect((body.content as unknown[])[2]).toEqual({
      type: 'code_execution_tool_result',
      tool_use_id: 'srvtoolu_code_0',
      content: { type: 'code_execution_tool_result_error', error_code: 'execution_time_exceeded' },
    });
    expect(warnings).toEqual(['dropped-field@choices[0].content[2].output']);
  });

  it('a Responses image output reaches Claude as a reported loss (Claude files are ids in its own Files API)', () => {
    const withImage = structuredClone(responsesAnswer);
    withImage.output[0] = {
      ...withImage.output[0]!,
      outputs: [
        { type: 'logs', logs: 'saved\n' },
        { type: 'image', url: 'https://files.example/plot.png' },
      ],
    } as never;
    const { body, warnings } = answer(claude, openaiResponses, withImage);
    expect((body.content as unknown[])[1]).toEqual({
      type: 'code_execution_tool_result',
      tool_use_id: 'ci_1',
      content: { type: 'code_execution_result', stdout: 'saved\n', stderr: '', return_code: 0, content: [] },
    });
    expect(warnings).toEqual(['dropped-field@choices[0].content[1].files[0]']);
  });
});

describe('code runs in request history', () => {
  const geminiRequest = {
    contents: [
      { role: 'user', parts: [{ text: 'What is 2 ** 10?' }] },
      {
        role: 'model',
        parts: [
          { executableCode: { language: 'PYTHON', code: 'print(2 ** 10)' } },
          { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1024\n' } },
          { text: 'It is 1024.' },
        ],
      },
      { role: 'user', parts: [{ text: 'And 2 ** 11?' }] },
    ],
    tools: [{ codeExecution: {} }],
  };
  // What a model that cannot take another sandbox's run back is told instead.
  const asText = ['```python\nprint(2 ** 10)\n```', 'Output:\n```\n1024\n```', 'It is 1024.'];

  it('goes to Claude as text (Claude takes back only its own server tool blocks), reported', () => {
    const { body, warnings } = translated(gemini, claude, geminiRequest, { model: 'gemini-2.5-flash' });
    expect((body as { messages: unknown[] }).messages[1]).toEqual({ role: 'assistant', content: asText.map((text) => ({ type: 'text', text })) });
    expect(warnings).toEqual(['defaulted@max_tokens', 'lossy-conversion@messages[1].content[0]', 'lossy-conversion@messages[1].content[1]']);
  });

  it('goes to Responses and Chat as assistant text, reported', () => {
    const responses = translated(gemini, openaiResponses, geminiRequest, { model: 'gemini-2.5-flash' });
    expect((responses.body as { input: unknown[] }).input[1]).toEqual({
      type: 'message',
      role: 'assistant',
      content: asText.map((text) => ({ type: 'output_text', text, annotations: [] })),
    });
    expect(responses.warnings).toEqual(['lossy-conversion@messages[1].content[0]', 'lossy-conversion@messages[1].content[1]']);
    const chat = translated(gemini, openaiChat, geminiRequest, { model: 'gemini-2.5-flash' });
    expect((chat.body as { messages: unknown[] }).messages[1]).toEqual({ role: 'assistant', content: asText.map((text) => ({ type: 'text', text })) });
    expect(chat.warnings).toEqual(['lossy-conversion@messages[1].content[0]', 'lossy-conversion@messages[1].content[1]', 'dropped-tool@tools[0]']);
  });

  it("goes to Gemini as its parts (Gemini takes back any sandbox's run): a Claude history keeps its ids", () => {
    const claudeRequest = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'What is 6 * 7?' },
        { role: 'assistant', content: claudeAnswer.content.slice(0, 2) },
        { role: 'user', content: 'And 6 * 8?' },
      ],
    };
    const { body, warnings } = translated(claude, gemini, claudeRequest);
    expect((body as { contents: unknown[] }).contents[1]).toEqual({
      role: 'model',
      parts: [
        { executableCode: { language: 'PYTHON', code: 'print(6 * 7)', id: 'srvtoolu_01' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n', id: 'srvtoolu_01' } },
      ],
    });
    expect(warnings).toEqual([]);
  });
});

/** The `output` of a Responses terminal event's text. */
function outputOf(event: string): unknown {
  return (JSON.parse(event.slice(event.indexOf('{'))) as { response: { output: unknown } }).response.output;
}

describe('same-protocol identity', () => {
  type Body = Record<string, unknown>;
  type Entries = Array<Record<string, unknown>>;
  // Each answer's code runs (the parts, blocks or items a stream must carry whole), and how many it has.
  const cases: Array<[string, Codec, unknown, (body: Body) => unknown[], number]> = [
    ['Gemini', gemini, geminiAnswer, (body) => ((body.candidates as Entries)[0]!.content as { parts: Entries }).parts.filter((part) => !('text' in part)), 2],
    ['Claude', claude, claudeAnswer, (body) => (body.content as Entries).filter((block) => block.type !== 'text'), 4],
    ['Responses', openaiResponses, responsesAnswer, (body) => (body.output as Entries).filter((item) => item.type === 'code_interpreter_call'), 1],
  ];

  it.each(cases)('a %s answer decodes and encodes back byte for byte, JSON and stream', async (_name, codec, wire, runsOf, runs) => {
    const warnings: unknown[] = [];
    const translator = bridge({ client: codec, upstream: codec, warn: (warning) => warnings.push(warning) });
    expect(JSON.stringify(translator.encodeResponse(translator.decode(structuredClone(wire))))).toBe(JSON.stringify(wire));
    const sse = await new Response(translator.responseToStream(structuredClone(wire))).text();
    const bytes = () =>
      (async function* () {
        yield new TextEncoder().encode(sse);
      })();
    let again = '';
    for await (const text of translator.encodeStream(translator.decodeStream(bytes()))) again += text;
    // The stream carries the whole answer: accumulated, it encodes to the same body.
    const accumulated = translator.encodeResponse(await accumulateStream(translator.decodeStream(bytes()))) as Body;
    expect(runsOf(accumulated)).toEqual(runsOf(wire as Body));
    expect(runsOf(wire as Body)).toHaveLength(runs);
    // Responses' terminal event also repeats response-level fields its stream decoder does not
    // keep (`error`, `tools`, ...): every event before it is compared whole, its output too.
    const [events, terminal] = sse.split('event: response.completed');
    const [eventsAgain, terminalAgain] = again.split('event: response.completed');
    expect(eventsAgain).toBe(events);
    if (terminal !== undefined) expect(outputOf(terminalAgain!)).toEqual(outputOf(terminal));
    expect(warnings).toEqual([]);
  });

  it('history with a run decodes and encodes back unchanged in each protocol', () => {
    const geminiHistory = { contents: [{ role: 'user', parts: [{ text: 'q' }] }, geminiAnswer.candidates[0]!.content] };
    expect(gemini.request.encode(gemini.request.decode(structuredClone(geminiHistory)))).toEqual(geminiHistory);
    const claudeHistory = {
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: claudeAnswer.content },
      ],
    };
    expect(JSON.stringify(claude.request.encode(claude.request.decode(structuredClone(claudeHistory))))).toBe(JSON.stringify(claudeHistory));
    const responsesHistory = { model: 'm', input: [{ role: 'user', content: 'q' }, ...responsesAnswer.output] };
    expect(JSON.stringify(openaiResponses.request.encode(openaiResponses.request.decode(structuredClone(responsesHistory))))).toBe(
      JSON.stringify(responsesHistory),
    );
  });
});
