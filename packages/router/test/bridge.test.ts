import { LlmError, type LlmResponse, type LlmStreamEvent, type LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { bridge } from '../src/bridge.js';
import { bytesOf, fakeCodec, fakeSse, parseFakeSse, textOf } from './fake-codec.js';

const chat = fakeCodec('openai-chat');
const claude = fakeCodec('claude');
const responses = fakeCodec('openai-responses');

const toolTurn: LlmResponse = {
  id: 'r1',
  model: 'm',
  choices: [
    {
      index: 0,
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool-call', id: 'call_1', name: 'read', arguments: '{"path":"a"}' },
      ],
      finishReason: 'stop',
      rawFinishReason: 'stop',
    },
  ],
};

const toolTurnEvents: LlmStreamEvent[] = [
  { type: 'start', id: 'r1', model: 'm' },
  { type: 'block-start', index: 0, block: { kind: 'text' } },
  { type: 'text-delta', index: 0, text: 'Let me look.' },
  { type: 'block-end', index: 0 },
  { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_1', name: 'read' } },
  { type: 'tool-args-delta', index: 1, json: '{"path":"a"}' },
  { type: 'block-end', index: 1 },
  { type: 'finish', reason: 'stop', rawReason: 'stop', usage: { inputTokens: 3, outputTokens: 5, totalTokens: 8 } as never },
];

describe('bridge requests', () => {
  it('rewrites the model and leaves the output limit to the upstream codec (no router default)', () => {
    const warnings: LlmWarning[] = [];
    const out = bridge({ client: chat, upstream: claude, warn: (w) => warnings.push(w) }).request(
      { model: 'gpt-x', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
      { upstreamModel: 'claude-y' },
    );
    expect(out.body).toEqual({
      model: 'claude-y',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(out).toMatchObject({ model: 'claude-y', clientModel: 'gpt-x', stream: false });
    expect(warnings).toEqual([]);
  });

  it('same protocol keeps the payload intact except the model', () => {
    const body = { model: 'a', messages: [], unknownField: { deep: [1, 2] } };
    const same = bridge({ client: chat, upstream: fakeCodec('openai-chat') });
    expect(same.request(body).body).toBe(body);
    expect(same.request(body, { upstreamModel: 'b' }).body).toEqual({ ...body, model: 'b' });
    const response = { id: 'r', model: 'a', choices: [], anything: true };
    expect(same.response(response)).toBe(response);
    // Not an answer at all: the 502 a decoded answer would get, never passed through (issue 17).
    expect(() => same.response({ anything: true })).toThrow(expect.objectContaining({ kind: 'upstream', status: 502, message: 'invalid Chat Completions answer at choices', path: 'choices' }));
  });

  it('cuts stop sequences to the target limit with a warning', () => {
    const warnings: LlmWarning[] = [];
    const out = bridge({ client: claude, upstream: chat, warn: (w) => warnings.push(w) }).request({
      model: 'm',
      messages: [],
      stop: ['a', 'b', 'c', 'd', 'e'],
    });
    expect((out.body as { stop: string[] }).stop).toEqual(['a', 'b', 'c', 'd']);
    expect(warnings.map((w) => w.code)).toEqual(['dropped-field']);
  });

  it('strict mode turns a loss into an unsupported error', () => {
    const body = {
      model: 'm',
      messages: [{ role: 'assistant', content: [{ type: 'reasoning', text: '', signature: 'sig', origin: { protocol: 'gemini' } }] }],
    };
    const strict = bridge({ client: chat, upstream: claude, strict: true });
    expect(() => strict.request(body)).toThrowError(expect.objectContaining({ kind: 'unsupported', code: 'foreign-state' }));
  });
});

describe('bridge responses and streams', () => {
  it('REGRESSIONS #16: a tool-call turn whose finish says stop reaches the client as tool_calls', () => {
    const out = bridge({ client: claude, upstream: chat }).response(structuredClone(toolTurn)) as LlmResponse;
    expect(out.choices[0]?.finishReason).toBe('tool_calls');
    expect(out.choices[0]?.rawFinishReason).toBe('stop');
  });

  it('hands the canonical response it decoded to onDecoded (once), and none on a same-protocol pass-through', () => {
    const seen: LlmResponse[] = [];
    const usage = { inputTokens: 3, outputTokens: 5, totalTokens: 8 } as LlmResponse['usage'];
    bridge({ client: chat, upstream: claude }).response({ ...structuredClone(toolTurn), usage }, (response) => seen.push(response));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.choices[0]?.finishReason).toBe('tool_calls');
    expect(seen[0]?.usage).toEqual(usage);
    const body = structuredClone(toolTurn);
    const passed = bridge({ client: claude, upstream: claude }).response(body, (response) => seen.push(response));
    expect(passed).toBe(body);
    expect(seen).toHaveLength(1);
  });

  it('REGRESSIONS #15: a streamed text+tool turn with finish stop ends as tool_calls', async () => {
    const out = bridge({ client: claude, upstream: chat }).stream(bytesOf(fakeSse(toolTurnEvents)));
    const events = parseFakeSse(await textOf(out));
    expect(events).toEqual([...toolTurnEvents.slice(0, -1), { ...toolTurnEvents[7], reason: 'tool_calls' }]);
  });

  it('REGRESSIONS #17: a non-streaming tool turn served to a streaming Responses client finishes with tool_calls', async () => {
    const out = bridge({ client: responses, upstream: chat }).responseToStream(structuredClone(toolTurn));
    const events = parseFakeSse(await textOf(out)) as LlmStreamEvent[];
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'tool_calls' });
    expect(events.filter((e) => e.type === 'block-start').map((e) => (e as { block: { kind: string } }).block.kind)).toEqual([
      'text',
      'tool_call',
    ]);
  });

  it('a streaming upstream serves a non-streaming client', async () => {
    const onEvent: LlmStreamEvent[] = [];
    const out = (await bridge({ client: claude, upstream: chat }).streamToResponse(bytesOf(fakeSse(toolTurnEvents)), {
      onEvent: (e) => onEvent.push(e),
    })) as LlmResponse;
    expect(out.choices[0]?.content).toEqual(toolTurn.choices[0]?.content);
    expect(out.choices[0]?.finishReason).toBe('tool_calls');
    expect(onEvent).toHaveLength(toolTurnEvents.length);
  });

  it('same-protocol streams pass bytes through and still report events', async () => {
    const seen: string[] = [];
    const sse = fakeSse(toolTurnEvents);
    const out = bridge({ client: chat, upstream: fakeCodec('openai-chat') }).stream(bytesOf(sse), { onEvent: (e) => seen.push(e.type) });
    expect(await textOf(out)).toBe(sse);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toContain('finish');
  });

  it('translates upstream errors into the client protocol', () => {
    const out = bridge({ client: claude, upstream: chat }).error(429, { error: { message: 'slow down' } }, new Headers({ 'retry-after': '2' }));
    expect(out).toEqual({
      status: 429,
      body: { error: { protocol: 'claude', kind: 'rate_limit', message: 'slow down' } },
      headers: { 'retry-after': '2' },
    });
  });

  it('encodes any thrown error in the client protocol', () => {
    const out = bridge({ client: claude, upstream: chat }).encodeError(new LlmError({ kind: 'not_found', message: 'nope' }));
    expect(out.status).toBe(404);
  });
});
