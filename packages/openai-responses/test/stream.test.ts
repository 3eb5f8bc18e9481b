import { collectSse, encodeSse, responseToEvents, type LlmResponse, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { byteAtATime, collect, runTransform, splitAt, splitOffsets, streamOf, utf8 } from '@llm/test-utils';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const P = 'openai-responses';

const RESPONSE: LlmResponse = {
  id: 'resp_1',
  model: 'gpt-5',
  created: 1700000000,
  choices: [
    {
      index: 0,
      content: [
        { type: 'reasoning', text: 'Thinking about it ü', format: 'summary', id: 'rs_1', signature: 'ENC_done', origin: { protocol: P } },
        { type: 'text', text: 'Héllo 👋 world' },
        { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
      finishReason: 'tool_calls',
      rawFinishReason: 'completed',
    },
  ],
  usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30, cacheReadTokens: 0, reasoningTokens: 5 },
};

async function encodeToSse(events: LlmStreamEvent[]): Promise<SseEvent[]> {
  return runTransform(openaiResponses.stream.encode(), events);
}

async function sseBytes(events: LlmStreamEvent[]): Promise<Uint8Array<ArrayBuffer>> {
  const sse = await encodeToSse(events);
  const chunks = await collect(streamOf(sse).pipeThrough(encodeSse()));
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** Encodes `response` as a stream and lets the openai SDK accumulate it; also returns response.encode of it. */
async function judged(response: LlmResponse) {
  const bytes = await sseBytes(responseToEvents(response));
  const client = new OpenAI({
    apiKey: 'x',
    baseURL: 'http://local/v1',
    fetch: async () => new Response(new Blob([bytes]), { headers: { 'content-type': 'text/event-stream' } }),
  });
  const final = await client.responses.stream({ model: 'gpt-5', input: 'hi' }).finalResponse();
  const wire = openaiResponses.response.encode(response) as unknown as Record<string, unknown> & { output: Record<string, unknown>[] };
  return { final, wire };
}

/**
 * finalResponse() is the SDK's ParsedResponse: the wire response plus `output_text`,
 * `output_parsed`, `parsed` on output_text parts and `parsed_arguments` on function calls.
 */
function parsedShape(item: Record<string, unknown>): Record<string, unknown> {
  if (item.type === 'message')
    return {
      ...item,
      content: (item.content as Array<Record<string, unknown>>).map((part) => (part.type === 'output_text' ? { ...part, parsed: null } : part)),
    };
  if (item.type === 'function_call') return { ...item, parsed_arguments: null };
  return item;
}

describe('stream.encode', () => {
  it('produces the full ordered event sequence with sequence numbers and indexes', async () => {
    const sse = await encodeToSse(responseToEvents(RESPONSE));
    const types = sse.map((event) => event.event);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const payloads = sse.map((event) => JSON.parse(event.data) as Record<string, unknown>);
    expect(payloads.map((payload) => payload.sequence_number)).toEqual(payloads.map((_, index) => index));
    expect(payloads[7]).toEqual({
      type: 'response.output_item.done',
      output_index: 0,
      item: { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Thinking about it ü' }], encrypted_content: 'ENC_done' },
      sequence_number: 7,
    });
    expect(payloads[10]).toEqual({
      type: 'response.output_text.delta',
      item_id: 'msg_1_1',
      output_index: 1,
      content_index: 0,
      delta: 'Héllo 👋 world',
      logprobs: [],
      sequence_number: 10,
    });
  });

  it('satisfies the openai SDK: finalResponse() equals response.encode of the same response', async () => {
    const { final, wire } = await judged(RESPONSE);
    expect(final).toEqual({ ...wire, output: wire.output.map(parsedShape), output_parsed: null, output_text: 'Héllo 👋 world' });
  });

  it('satisfies the openai SDK with parallel calls and a refusal next to text', async () => {
    const response: LlmResponse = {
      id: 'resp_3',
      model: 'gpt-5',
      created: 1700000001,
      choices: [
        {
          index: 0,
          content: [
            { type: 'text', text: 'Part one.' },
            { type: 'refusal', text: 'Not that part.' },
            { type: 'tool-call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { type: 'tool-call', id: 'call_b', name: 'get_time', arguments: { tz: 'CET' } },
          ],
          finishReason: 'tool_calls',
        },
      ],
      usage: { inputTokens: 7, outputTokens: 9, totalTokens: 16 },
    };
    const { final, wire } = await judged(response);
    // Adjacent text and refusal blocks share one message item, as response.encode groups them.
    const message = (id: string, ...content: Record<string, unknown>[]) => ({ id, type: 'message', status: 'completed', role: 'assistant', content });
    const call = (index: number, callId: string, name: string, args: string) => ({
      id: `fc_3_${index}`,
      type: 'function_call',
      status: 'completed',
      call_id: callId,
      name,
      arguments: args,
    });
    expect(final.output).toEqual([
      message(
        'msg_3_0',
        { type: 'output_text', text: 'Part one.', annotations: [], parsed: null },
        { type: 'refusal', refusal: 'Not that part.', parsed: null },
      ),
      { ...call(2, 'call_a', 'get_weather', '{"city":"Paris"}'), parsed_arguments: null },
      { ...call(3, 'call_b', 'get_time', '{"tz":"CET"}'), parsed_arguments: null },
    ]);
    expect({ ...final, output: undefined }).toEqual({ ...wire, output: undefined, output_parsed: null, output_text: 'Part one.' });
  });

  it('ends with error and response.failed on a canonical error', async () => {
    const { LlmError } = await import('@llm/core');
    const sse = await encodeToSse([
      { type: 'start', id: 'resp_2', model: 'm', created: 1 },
      { type: 'error', error: new LlmError({ kind: 'rate_limit', message: 'slow down' }) },
    ]);
    expect(sse.map((event) => JSON.parse(event.data))).toEqual([
      expect.objectContaining({ type: 'response.created', sequence_number: 0 }),
      expect.objectContaining({ type: 'response.in_progress', sequence_number: 1 }),
      { type: 'error', code: 'rate_limit_exceeded', message: 'slow down', param: null, sequence_number: 2 },
      expect.objectContaining({ type: 'response.failed', sequence_number: 3 }),
    ]);
  });
});

describe('stream.decode', () => {
  it('#31/#32 decodes an encoded stream back to the same canonical response, at every byte split', async () => {
    const { accumulateEvents } = await import('@llm/core');
    const bytes = await sseBytes(responseToEvents(RESPONSE));
    const decodeBytes = async (chunks: Uint8Array[]) => {
      const events = await collect((await collectSseStream(chunks)).pipeThrough(openaiResponses.stream.decode()));
      return accumulateEvents(events);
    };
    const whole = await decodeBytes([bytes]);
    expect(openaiResponses.response.encode(whole)).toEqual({
      ...openaiResponses.response.encode(RESPONSE),
      // decoded items carry the ids and statuses the stream gave them
    });
    for (const offset of splitOffsets(bytes.length, 60)) {
      expect(await decodeBytes(splitAt(bytes, [offset]))).toEqual(whole);
    }
    expect(await decodeBytes(byteAtATime(bytes))).toEqual(whole);
  });

  it('decodes both error shapes', async () => {
    const flat = { type: 'error', code: 'server_error', message: 'boom', param: null, sequence_number: 1 };
    const nested = { type: 'error', sequence_number: 2, error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'quota', param: null } };
    for (const [payload, kind, code, message] of [
      [flat, 'upstream', 'server_error', 'boom'],
      [nested, 'quota', 'insufficient_quota', 'quota'],
    ] as const) {
      const events = await runTransform(openaiResponses.stream.decode(), [{ event: 'error', data: JSON.stringify(payload) }]);
      expect(events).toHaveLength(1);
      const error = (events[0] as Extract<LlmStreamEvent, { type: 'error' }>).error;
      expect([error.kind, error.code, error.message]).toEqual([kind, code, message]);
    }
  });

  it('emits an error event for invalid JSON instead of throwing', async () => {
    const events = await runTransform(openaiResponses.stream.decode(), [{ data: '{not json' }, { data: '{}' }]);
    expect(events.map((event) => event.type)).toEqual(['error']);
  });
});

async function collectSseStream(chunks: Uint8Array[]): Promise<ReadableStream<SseEvent>> {
  return streamOf(await collectSse(streamOf(chunks)));
}

void utf8;
