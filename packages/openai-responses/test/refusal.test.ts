import { responseToEvents, type LlmResponse } from '@llm/core';
import { runTransform } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { REFUSAL_FALLBACK_TEXT as REFUSAL_TEXT } from '@llm/core';
import { openaiResponses } from '../src/index.js';

/** What the Claude codec decodes from a classifier refusal: `stop_reason: "refusal"`, partial or no text. */
function claudeRefusal(text: string | undefined): LlmResponse {
  return {
    id: 'resp_r1',
    model: 'claude-sonnet-4-5',
    created: 1700000000,
    choices: [{ index: 0, content: text === undefined ? [] : [{ type: 'text', text }], finishReason: 'refusal', rawFinishReason: 'refusal' }],
    usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 },
  };
}

const REFUSAL_PART = { type: 'refusal', refusal: REFUSAL_TEXT };

describe('a refusal finish reaches Responses clients as a refusal part', () => {
  it('non-stream, partial text: the text, then the refusal part in the same message, status completed', () => {
    const wire = openaiResponses.response.encode(claudeRefusal('Here is how to')) as unknown as Record<string, unknown>;
    expect(wire.status).toBe('completed');
    expect(wire.incomplete_details).toBeNull();
    expect(wire.output).toEqual([
      {
        id: 'msg_r1_0',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Here is how to', annotations: [] }, REFUSAL_PART],
      },
    ]);
    const back = openaiResponses.response.decode(wire).choices[0];
    expect(back?.finishReason).toBe('refusal');
    expect(back?.content.map((part) => ({ ...part, extensions: undefined }))).toEqual([
      { type: 'text', text: 'Here is how to', extensions: undefined },
      { type: 'refusal', text: REFUSAL_TEXT, extensions: undefined },
    ]);
  });

  it('non-stream, no text: one message holding only the refusal part', () => {
    const wire = openaiResponses.response.encode(claudeRefusal(undefined)) as unknown as Record<string, unknown>;
    expect(wire.status).toBe('completed');
    expect(wire.output).toEqual([{ id: 'msg_r1_0', type: 'message', role: 'assistant', status: 'completed', content: [REFUSAL_PART] }]);
  });

  it('non-stream: a refusal part already there is not doubled', () => {
    const response = claudeRefusal(undefined);
    (response.choices[0] as { content: unknown[] }).content = [{ type: 'refusal', text: 'No.' }];
    const wire = openaiResponses.response.encode(response) as unknown as Record<string, unknown>;
    expect(wire.output).toEqual([{ id: 'msg_r1_0', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'No.' }] }]);
  });

  it('stream, partial text: refusal events in the text’s message item, then response.completed holding it', async () => {
    const sse = await runTransform(openaiResponses.stream.encode(), responseToEvents(claudeRefusal('Here is how to')));
    const events = sse.map((event) => JSON.parse(event.data) as Record<string, unknown>);
    const message = {
      id: 'msg_r1_0',
      type: 'message',
      status: 'completed',
      content: [{ type: 'output_text', annotations: [], text: 'Here is how to' }, REFUSAL_PART],
      role: 'assistant',
    };
    const at = { item_id: 'msg_r1_0', output_index: 0, content_index: 1 };
    expect(events.slice(7).map(({ sequence_number: _, ...event }) => event)).toEqual([
      { type: 'response.content_part.added', ...at, part: { type: 'refusal', refusal: '' } },
      { type: 'response.refusal.delta', ...at, delta: REFUSAL_TEXT },
      { type: 'response.refusal.done', ...at, refusal: REFUSAL_TEXT },
      { type: 'response.content_part.done', ...at, part: REFUSAL_PART },
      { type: 'response.output_item.done', output_index: 0, item: message },
      expect.objectContaining({
        type: 'response.completed',
        response: expect.objectContaining({ status: 'completed', incomplete_details: null, output: [message] }),
      }),
    ]);
    expect(events.slice(0, 7).map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
    ]);
  });

  it('stream, no text: the refusal message is the only item', async () => {
    const sse = await runTransform(openaiResponses.stream.encode(), responseToEvents(claudeRefusal(undefined)));
    const events = sse.map((event) => JSON.parse(event.data) as Record<string, unknown>);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.refusal.delta',
      'response.refusal.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect((events[8]?.response as { output: unknown }).output).toEqual([
      { id: 'msg_r1_0', type: 'message', status: 'completed', content: [REFUSAL_PART], role: 'assistant' },
    ]);
  });
});
