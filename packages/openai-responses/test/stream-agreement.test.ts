// Property: the stream encoder and the response encoder agree. For any canonical response, the
// stream the encoder writes (for core's responseToEvents of it) ends with the response the body
// is (`response.completed` / `.incomplete` / `.failed` carries it whole), its delta events folded
// into items the way the openai SDK's ResponseStream builds them give that response's `output`,
// and both paths report the same losses.
import { FINISH_REASONS, responseToEvents, type LlmAssistantContent, type LlmCitation, type LlmResponse, type LlmStreamEvent } from '@llm/core';
import { encodeBothWays } from '@llm/test-utils';
import fc from 'fast-check';
import * as arb from '@llm/test-utils/canonical-arbitraries';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

type Wire = Record<string, unknown>;
type Item = Wire & { content?: Wire[]; summary?: Wire[] };

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** Throws unless a `.done` event repeats what the deltas built (the SDK would replace it silently). */
function same(folded: unknown, done: unknown, what: string): void {
  expect(done, what).toEqual(folded);
}

/**
 * Events -> output items from `output_item.added` and the deltas alone: content and summary parts
 * from their `.added` events, text, refusal, summary, reasoning text, arguments, input and code
 * concatenated (MCP call arguments too), annotations from `annotation.added`. Each `.done` event must repeat the folded
 * value; `output_item.done` adds only what no earlier event carries (the item's final `status`, a
 * reasoning item's `encrypted_content`, a code interpreter call's `outputs`, an MCP call's
 * `output` / `error`, a tool list's `tools` / `error`). Returns the items
 * and the terminal event's response.
 */
function fold(chunks: readonly unknown[]): { items: Item[]; terminal: Wire; type: string } {
  const items: Item[] = [];
  let terminal: { type: string; response: Wire } | undefined;
  let sequence = 0;
  for (const event of chunks as Wire[]) {
    if (terminal) throw new Error(`${String(event.type)} after the terminal event`);
    if (event.sequence_number !== sequence++) throw new Error(`sequence_number ${String(event.sequence_number)} out of order`);
    const type = event.type as string;
    if (TERMINAL.has(type)) {
      terminal = { type, response: event.response as Wire };
      continue;
    }
    if (type === 'response.created' || type === 'response.in_progress') continue;
    const index = event.output_index as number;
    if (type === 'response.output_item.added') {
      if (index !== items.length) throw new Error(`item ${index} added out of order`);
      items.push(structuredClone(event.item) as Item);
      continue;
    }
    const item = items[index];
    if (!item) throw new Error(`${type} for item ${index}, never added`);
    const content = item.content?.[event.content_index as number];
    const summary = item.summary?.[event.summary_index as number];
    switch (type) {
      case 'response.content_part.added':
        if (event.content_index !== (item.content ??= []).length) throw new Error('a content part added out of order');
        item.content.push(structuredClone(event.part) as Wire);
        break;
      case 'response.reasoning_summary_part.added':
        if (event.summary_index !== item.summary!.length) throw new Error('a summary part added out of order');
        item.summary!.push(structuredClone(event.part) as Wire);
        break;
      case 'response.output_text.delta':
      case 'response.reasoning_text.delta':
        content!.text = `${content!.text as string}${event.delta as string}`;
        break;
      case 'response.refusal.delta':
        content!.refusal = `${content!.refusal as string}${event.delta as string}`;
        break;
      case 'response.reasoning_summary_text.delta':
        summary!.text = `${summary!.text as string}${event.delta as string}`;
        break;
      case 'response.function_call_arguments.delta':
      case 'response.mcp_call_arguments.delta':
        item.arguments = `${item.arguments as string}${event.delta as string}`;
        break;
      case 'response.custom_tool_call_input.delta':
        item.input = `${item.input as string}${event.delta as string}`;
        break;
      case 'response.code_interpreter_call_code.delta':
        item.code = `${item.code as string}${event.delta as string}`;
        break;
      case 'response.code_interpreter_call.in_progress':
      case 'response.code_interpreter_call.interpreting':
      case 'response.code_interpreter_call.completed':
      case 'response.mcp_call.in_progress':
      case 'response.mcp_call.completed':
      case 'response.mcp_call.failed':
      case 'response.mcp_list_tools.in_progress':
      case 'response.mcp_list_tools.completed':
      case 'response.mcp_list_tools.failed':
        // A status event: it names its item's type.
        if (type.split('.')[1] !== item.type) throw new Error(`${type} for a ${String(item.type)} item`);
        break;
      case 'response.output_text.annotation.added':
        (content!.annotations as unknown[])[event.annotation_index as number] = event.annotation;
        break;
      case 'response.output_text.done':
      case 'response.reasoning_text.done':
      case 'response.reasoning_summary_text.done':
        same((content ?? summary)!.text, event.text, type);
        break;
      case 'response.refusal.done':
        same(content!.refusal, event.refusal, type);
        break;
      case 'response.content_part.done':
        same(content, event.part, type);
        break;
      case 'response.reasoning_summary_part.done':
        same(summary, event.part, type);
        break;
      case 'response.function_call_arguments.done':
      case 'response.mcp_call_arguments.done':
        same(item.arguments, event.arguments, type);
        break;
      case 'response.custom_tool_call_input.done':
        same(item.input, event.input, type);
        break;
      case 'response.code_interpreter_call_code.done':
        same(item.code, event.code, type);
        break;
      case 'response.output_item.done': {
        const done = event.item as Item;
        if (done.status !== undefined) item.status = done.status;
        if (done.encrypted_content !== undefined) item.encrypted_content = done.encrypted_content;
        if (item.type === 'code_interpreter_call' && done.outputs !== undefined) item.outputs = done.outputs;
        // An MCP call's output or error, a tool list's tools or error: only the done item has them.
        for (const key of item.type === 'mcp_call' ? ['output', 'error'] : item.type === 'mcp_list_tools' ? ['tools', 'error'] : [])
          if (done[key] !== undefined) item[key] = done[key];
        same(item, done, type);
        break;
      }
      default:
        throw new Error(`an unexpected ${type} event`);
    }
  }
  if (!terminal) throw new Error('the stream did not end with a terminal event');
  return { items, terminal: terminal.response, type: terminal.type };
}

const text = arb.texts();
const signature = arb.signatures('enc_');
const callId = arb.ids('call_');
const citation: fc.Arbitrary<LlmCitation> = fc.oneof(
  fc.record({ url: fc.webUrl(), title: text }, { requiredKeys: ['url'] }).map((fields) => ({ kind: 'url' as const, ...fields })),
  fc.record({ fileId: arb.ids('file_', 6), title: text }, { requiredKeys: [] }).map((fields) => ({ kind: 'file' as const, ...fields })),
);
// Python runs, the code interpreter's or another protocol's (files: an image URL is an output, a file id reported).
const run = { languages: ['python'], id: arb.ids('ci_'), origins: [{ protocol: 'openai-responses' }, { protocol: 'gemini' }, undefined] } as const;
const part: fc.Arbitrary<LlmAssistantContent | readonly LlmAssistantContent[]> = fc.oneof(
  fc
    .record({ text, citations: fc.array(citation, { minLength: 1, maxLength: 2 }) }, { requiredKeys: ['text'] })
    .map((fields) => ({ type: 'text' as const, ...fields })),
  fc
    .record({ text, signature, format: fc.constantFrom('summary' as const, 'full' as const), id: arb.ids('rs_', 6) }, { requiredKeys: ['text'] })
    .chain((fields) =>
      fc
        .constantFrom({ protocol: 'openai-responses' as const }, { protocol: 'claude' as const }, undefined)
        .map((origin) => ({ type: 'reasoning' as const, ...fields, ...(origin ? { origin } : {}) })),
    ),
  // A signed text or call is Gemini's (no origin).
  arb.signedTextParts(text, signature),
  arb.signedCallParts(callId, signature),
  ...arb.sharedParts({ text, callId, argumentTexts: ['[1]', 'not json', '"s"', ''], run }),
  // Provider items of every protocol (the codec's own written back whole) and the MCP parts.
  arb.providerParts(arb.providerItems),
  ...arb.mcpParts({ text, callId: arb.ids('mcp_') }),
);
// `created` is always set: with none, each encoder stamps its own clock.
const response: fc.Arbitrary<LlmResponse> = arb.responses(part, FINISH_REASONS, {
  id: arb.ids('resp_'),
  models: ['gpt-5', 'claude-sonnet-4-5'],
  created: true,
  usage: arb.usages({ cacheReadTokens: 100, reasoningTokens: 100 }),
  serviceTiers: ['default', 'flex'],
});

const bothWays = (value: LlmResponse) => encodeBothWays(openaiResponses, value, responseToEvents);

/** A `gpt-5` answer of one choice with `content`, stopped. */
const answerOf = (content: LlmAssistantContent[]): LlmResponse => ({
  id: 'resp_1',
  model: 'gpt-5',
  created: 1,
  choices: [{ index: 0, content, finishReason: 'stop' }],
});

describe('property: the stream and the non-stream encoding of a response agree', () => {
  it('the terminal event carries the body, the folded deltas its output, with the same losses reported', () => {
    arb.assertAgreement(
      response,
      bothWays,
      (both) => {
        const { items, terminal } = fold(both.chunks);
        expect(items).toEqual(terminal.output);
        return { streamed: terminal };
      },
      expect,
    );
  });

  it('a foreign answer cut by its token limit: its text parts share one `completed` message item, the response `incomplete`', () => {
    const value: LlmResponse = {
      id: 'resp_1',
      model: 'claude-sonnet-4-5',
      created: 1,
      choices: [
        {
          index: 0,
          content: [
            { type: 'text', text: 'A' },
            { type: 'refusal', text: 'B' },
          ],
          finishReason: 'length',
        },
      ],
    };
    const both = bothWays(value);
    const body = both.body as Wire;
    const content = [
      { type: 'output_text', annotations: [], text: 'A' },
      { type: 'refusal', refusal: 'B' },
    ];
    expect(body.output).toEqual([{ id: 'msg_1_0', type: 'message', status: 'completed', content, role: 'assistant' }]);
    expect([body.status, body.incomplete_details]).toEqual(['incomplete', { reason: 'max_output_tokens' }]);
    const { items, terminal, type } = fold(both.chunks);
    expect(type).toBe('response.incomplete');
    expect(terminal).toEqual(body);
    expect(items).toEqual(body.output);
    expect(both.chunks.filter((chunk) => (chunk as Wire).type === 'response.content_part.added')).toEqual([
      {
        type: 'response.content_part.added',
        item_id: 'msg_1_0',
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', annotations: [], text: '' },
        sequence_number: 3,
      },
      {
        type: 'response.content_part.added',
        item_id: 'msg_1_0',
        output_index: 0,
        content_index: 1,
        part: { type: 'refusal', refusal: '' },
        sequence_number: 7,
      },
    ]);
  });

  it('a signed text and a signed call (Gemini’s) are reported the same way by both paths, the answer written without them', () => {
    const value: LlmResponse = {
      id: 'resp_1',
      model: 'gemini-2.5-pro',
      created: 1,
      choices: [
        {
          index: 0,
          content: [
            { type: 'text', text: 'Hi', signature: 'sigT', origin: { protocol: 'gemini' } },
            { type: 'tool-call', id: 'call_1', name: 'f', arguments: {}, signature: 'sigC' },
          ],
          finishReason: 'tool_calls',
        },
      ],
    };
    const both = bothWays(value);
    const loss = { code: 'foreign-state', message: 'provider state issued by gemini was not replayed to openai-responses', protocol: 'openai-responses' };
    const expected = [
      { ...loss, path: 'choices[0].content[0]' },
      { ...loss, path: 'choices[0].content[1]' },
    ];
    expect(both.bodyWarnings).toEqual(expected);
    expect(both.streamWarnings).toEqual(expected);
    expect((both.body as Wire).output).toEqual([
      { id: 'msg_1_0', type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], text: 'Hi' }], role: 'assistant' },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}', id: 'fc_1_1', status: 'completed' },
    ]);
    expect(fold(both.chunks).terminal).toEqual(both.body);
  });

  it('a block that interleaves with a text ends the text’s message item with it; the terminal output is in output order', () => {
    const step = openaiResponses.stream.encoder({});
    const chunks: Wire[] = [];
    const out = { enqueue: (event: { data: string }) => chunks.push(JSON.parse(event.data) as Wire) };
    const events: LlmStreamEvent[] = [
      { type: 'start', id: 'resp_1', model: 'gpt-5', created: 1 },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_1', name: 'f' } },
      { type: 'text-delta', index: 0, text: 'Hi' },
      { type: 'tool-args-delta', index: 1, json: '{}' },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 2, block: { kind: 'text' } },
      { type: 'text-delta', index: 2, text: 'Yo' },
      { type: 'block-end', index: 2 },
      { type: 'block-end', index: 1 },
      { type: 'finish', reason: 'tool_calls' },
    ];
    for (const event of events) step.transform(event, out);
    step.flush?.(out);
    const message = (id: string, said: string) => ({
      id,
      type: 'message',
      status: 'completed',
      content: [{ type: 'output_text', annotations: [], text: said }],
      role: 'assistant',
    });
    const { items, terminal } = fold(chunks);
    const call = { id: 'fc_1_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'f', arguments: '{}' };
    // In output order, though the call finished last.
    const expected = [message('msg_1_0', 'Hi'), call, message('msg_1_2', 'Yo')];
    expect(terminal.output).toEqual(expected);
    expect(items).toEqual(expected);
  });

  it('a result naming another code than the one before it is left out by both paths, reported once alike', () => {
    const content: LlmAssistantContent[] = [
      { type: 'code-execution', language: 'python', code: 'print(1)' },
      { type: 'code-execution-result', callId: 'exec_9', outcome: 'ok', output: '1\n' },
    ];
    const value: LlmResponse = { id: 'resp_1', model: 'gemini-2.5-pro', created: 1, choices: [{ index: 0, content, finishReason: 'stop' }] };
    const both = bothWays(value);
    expect((both.body as Wire).output).toEqual([{ id: 'ci_1_0', type: 'code_interpreter_call', status: 'in_progress', code: 'print(1)', outputs: null }]);
    const { items, terminal } = fold(both.chunks);
    expect(terminal).toEqual(both.body);
    expect(items).toEqual(terminal.output);
    const loss = {
      code: 'dropped-part',
      path: 'choices[0].content[1]',
      message: 'a code execution result has no openai-responses form (Responses carries a result only in the item of its code)',
      protocol: 'openai-responses',
    };
    expect(both.bodyWarnings).toEqual([loss]);
    expect(both.streamWarnings).toEqual([loss]);
  });

  it('another protocol’s item and an assistant image are reported once by the stream, as by the body', () => {
    const both = bothWays(
      answerOf([
        { type: 'provider', protocol: 'claude', value: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } } },
        { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
      ]),
    );
    const warnings = [
      { code: 'dropped-part', path: 'choices[0].content[0]', message: 'a claude provider item has no Responses form', protocol: 'openai-responses' },
      { code: 'dropped-part', path: 'choices[0].content[1]', message: 'assistant image parts have no Responses input form', protocol: 'openai-responses' },
    ];
    expect(both.bodyWarnings).toEqual(warnings);
    expect(both.streamWarnings).toEqual(warnings);
    expect((both.body as Wire).output).toEqual([]);
    expect(fold(both.chunks).terminal).toEqual(both.body);
  });

  it('an MCP call and its result stream as one `mcp_call` item, the body’s', () => {
    const both = bothWays(
      answerOf([
        { type: 'mcp-call', id: 'mcp_1', server: 'docs', name: 'search', arguments: { q: 1 } },
        { type: 'mcp-result', callId: 'mcp_1', content: [{ type: 'text', text: 'found' }], isError: true },
      ]),
    );
    const { items, terminal } = fold(both.chunks);
    expect(terminal).toEqual(both.body);
    expect(items).toEqual((both.body as Wire).output);
    expect(items).toEqual([{ type: 'mcp_call', id: 'mcp_1', server_label: 'docs', name: 'search', arguments: '{"q":1}', error: 'found', status: 'failed' }]);
    expect((both.chunks as Wire[]).map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.mcp_call.in_progress',
      'response.mcp_call_arguments.delta',
      'response.mcp_call_arguments.done',
      'response.mcp_call.failed',
      'response.output_item.done',
      'response.completed',
    ]);
    expect([both.bodyWarnings, both.streamWarnings]).toEqual([[], []]);
  });
});
