// Issue 18 (translation fidelity), the Chat codec's part: a refusal reads as one, every canonical
// finish reason has a Chat word that does not pass an unfinished answer off as complete, chunks
// with `message` in place of `delta` are read, and answers always carry an id and a time.
import type { LlmFinishReason, LlmResponse, LlmStreamEvent, LlmWarning } from '@llm/core';
import { FINISH_REASONS, collectSse, encodeSse, responseToEvents } from '@llm/core';
import { collect, runTransform, streamOf, utf8 } from '@llm/test-utils';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REFUSAL_FALLBACK_TEXT, openaiChat } from '../src/index.js';

const P = 'openai-chat';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Encodes `events` to SSE and lets the official SDK accumulate them (its `parsed` addition removed). */
async function sdkFinal(events: LlmStreamEvent[]): Promise<unknown> {
  const bytes = await collect(streamOf(events).pipeThrough(openaiChat.stream.encode()).pipeThrough(encodeSse()));
  const body = new Blob(bytes as BlobPart[]);
  const fetch = async (): Promise<Response> => new Response(body.stream(), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  const client = new OpenAI({ baseURL: 'http://llm.test/v1', apiKey: 'x', fetch });
  const final = await client.chat.completions.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).finalChatCompletion();
  for (const choice of final.choices) delete (choice.message as { parsed?: unknown }).parsed;
  return final;
}

const chunks = async (events: LlmStreamEvent[], warnings?: LlmWarning[]): Promise<unknown[]> => {
  const out = await runTransform(openaiChat.stream.encode({ warn: (warning) => warnings?.push(warning) }), events);
  return out.map((event) => (event.data === '[DONE]' ? '[DONE]' : JSON.parse(event.data)));
};

/** A one-choice answer from Claude (`created` given so the JSON is exact). */
const claudeAnswer = (content: LlmResponse['choices'][number]['content'], finishReason: LlmFinishReason, rawFinishReason?: string): LlmResponse => ({
  id: 'msg_1',
  model: 'claude-sonnet-4-5',
  created: 1_700_000_000,
  choices: [rawFinishReason === undefined ? { index: 0, content, finishReason } : { index: 0, content, finishReason, rawFinishReason }],
});
const chatAnswer = (message: Record<string, unknown>, finish: string) => ({
  id: 'msg_1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'claude-sonnet-4-5',
  choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: null, ...message }, finish_reason: finish, logprobs: null }],
});

describe('a refusal reaches a Chat client as content_filter with its refusal text', () => {
  it.each([
    [
      'a Claude classifier refusal with no text: the fallback refusal text',
      claudeAnswer([], 'refusal', 'refusal'),
      chatAnswer({ refusal: REFUSAL_FALLBACK_TEXT }, 'content_filter'),
    ],
    [
      'a refusal after thinking, with no answer text: the fallback refusal text',
      claudeAnswer([{ type: 'reasoning', text: 'Hmm.', origin: { protocol: P } }], 'refusal', 'refusal'),
      chatAnswer({ reasoning_content: 'Hmm.', refusal: REFUSAL_FALLBACK_TEXT }, 'content_filter'),
    ],
    [
      'a refusal that cut partial text: the text stays content, no made-up refusal',
      claudeAnswer([{ type: 'text', text: 'Step one is' }], 'refusal', 'refusal'),
      chatAnswer({ content: 'Step one is' }, 'content_filter'),
    ],
    [
      'a refusal part (a Responses refusal): its own text',
      claudeAnswer([{ type: 'refusal', text: 'I cannot help with that.' }], 'refusal'),
      chatAnswer({ refusal: 'I cannot help with that.' }, 'content_filter'),
    ],
  ])('%s, JSON and stream alike', async (_name, response, expected) => {
    expect(openaiChat.response.encode(response)).toEqual(expected);
    expect(await sdkFinal(responseToEvents(response))).toEqual(expected);
  });

  it('the stream of a refusal with no text: a refusal delta, then the content_filter chunk, then [DONE]', async () => {
    const head = { id: 'msg_1', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'claude-sonnet-4-5' };
    expect(await chunks(responseToEvents(claudeAnswer([], 'refusal', 'refusal')))).toEqual([
      { ...head, choices: [{ index: 0, delta: { role: 'assistant', refusal: REFUSAL_FALLBACK_TEXT }, finish_reason: null }] },
      { ...head, choices: [{ index: 0, delta: {}, finish_reason: 'content_filter' }] },
      '[DONE]',
    ]);
  });

  it("a Chat upstream's own refusal (stop + refusal) is written back as it came", () => {
    const body = chatAnswer({ refusal: 'No.' }, 'stop');
    expect(openaiChat.response.encode(openaiChat.response.decode(structuredClone(body)))).toEqual(body);
  });
});

describe('every canonical finish reason has a Chat word (none passes an unfinished answer as stop)', () => {
  const cases: Array<[LlmFinishReason, string, Array<[string, string]>]> = [
    ['stop', 'stop', []],
    ['length', 'length', []],
    ['tool_calls', 'tool_calls', []],
    ['content_filter', 'content_filter', []],
    ['refusal', 'content_filter', []],
    ['pause', 'length', [['lossy-conversion', 'choices[0].finish_reason']]],
    ['context_exceeded', 'length', []],
    ['error', 'stop', [['lossy-conversion', 'choices[0].finish_reason']]],
    ['other', 'stop', []],
  ];

  it('covers every canonical reason', () => {
    expect(cases.map(([reason]) => reason)).toEqual([...FINISH_REASONS]);
  });

  it.each(cases)('%s -> %s, JSON and stream, with the same warnings', async (reason, wire, lost) => {
    const response = claudeAnswer([{ type: 'text', text: 'Partial' }], reason);
    const warnings: LlmWarning[] = [];
    const body = openaiChat.response.encode(response, { warn: (warning) => warnings.push(warning) });
    expect(body.choices[0]?.finish_reason).toBe(wire);
    expect(warnings.map((warning) => [warning.code, warning.path])).toEqual(lost);
    const streamWarnings: LlmWarning[] = [];
    const out = await chunks(responseToEvents(response), streamWarnings);
    expect((out.at(-2) as { choices: Array<{ finish_reason: string }> }).choices[0]?.finish_reason).toBe(wire);
    expect(streamWarnings.map((warning) => [warning.code, warning.path])).toEqual(lost.map(([code]) => [code, 'finish']));
  });
});

describe('stream chunks carrying `message` in place of `delta` are read like deltas', () => {
  const head = { id: 'chatcmpl-m', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'compat-1' };
  const sse = (payloads: unknown[]): string =>
    payloads.map((payload) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`).join('');
  const decode = async (raw: string) => runTransform(openaiChat.stream.decode(), await collectSse(streamOf([utf8(raw)])));

  it('text, refusal and tool calls, exact events', async () => {
    const raw = sse([
      { ...head, choices: [{ index: 0, message: { role: 'assistant', content: 'Hel' }, finish_reason: null }] },
      { ...head, choices: [{ index: 0, message: { content: 'lo' }, finish_reason: null }] },
      {
        ...head,
        choices: [
          {
            index: 0,
            message: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] },
            finish_reason: null,
          },
        ],
      },
      { ...head, choices: [{ index: 0, message: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }, finish_reason: 'tool_calls' }] },
      { ...head, choices: [{ index: 1, message: { role: 'assistant', content: null, refusal: 'No.' }, finish_reason: 'stop' }] },
      '[DONE]',
    ]);
    expect(await decode(raw)).toEqual([
      { type: 'start', id: 'chatcmpl-m', model: 'compat-1', created: 1_700_000_000 },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Hel' },
      { type: 'text-delta', index: 0, text: 'lo' },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_1', name: 'f' } },
      { type: 'tool-args-delta', index: 1, json: '{"a"' },
      { type: 'tool-args-delta', index: 1, json: ':1}' },
      { type: 'block-end', index: 1 },
      { type: 'block-start', index: 2, block: { kind: 'refusal' }, choice: 1 },
      { type: 'text-delta', index: 2, text: 'No.' },
      { type: 'block-end', index: 2 },
      { type: 'finish', reason: 'tool_calls', rawReason: 'tool_calls' },
      { type: 'finish', reason: 'refusal', rawReason: 'stop', choice: 1 },
    ]);
  });

  it('a chunk with both reads only its delta', async () => {
    const raw = sse([{ ...head, choices: [{ index: 0, delta: { content: 'A' }, message: { content: 'AB' }, finish_reason: 'stop' }] }, '[DONE]']);
    expect(await decode(raw)).toEqual([
      { type: 'start', id: 'chatcmpl-m', model: 'compat-1', created: 1_700_000_000 },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'A' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
    ]);
  });
});

describe('an answer from an upstream with no id or time gets a chatcmpl- id and the current time', () => {
  const NOW_MS = 1_800_000_000_500;
  const ID = /^chatcmpl-[0-9a-z]{12}$/;

  it('JSON: an empty id and no created', () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW_MS);
    const body = openaiChat.response.encode({
      id: '',
      model: 'gemini-2.5-pro',
      choices: [{ index: 0, content: [{ type: 'text', text: 'Hi' }], finishReason: 'stop' }],
    });
    expect(body.id).toMatch(ID);
    expect(body.created).toBe(1_800_000_000);
    // A time the upstream did send is kept, 0 included (a Chat answer round-trips unchanged).
    expect(openaiChat.response.encode({ id: 'chatcmpl-x', model: 'm', created: 0, choices: [] }).created).toBe(0);
  });

  it('stream: a start with an empty id and no created; every chunk carries the same fresh id and the time', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW_MS);
    const out = (await chunks([
      { type: 'start', id: '', model: 'gemini-2.5-pro' },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Hi' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'stop' },
    ])) as Array<{ id: string; created: number } | string>;
    const payloads = out.filter((chunk): chunk is { id: string; created: number } => typeof chunk !== 'string');
    expect(payloads).toHaveLength(3);
    expect(payloads[0]!.id).toMatch(ID);
    expect(payloads.map((chunk) => [chunk.id, chunk.created])).toEqual(payloads.map(() => [payloads[0]!.id, 1_800_000_000]));
  });
});
