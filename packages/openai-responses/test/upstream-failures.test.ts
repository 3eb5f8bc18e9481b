import type { LlmStreamEvent, SseEvent } from '@llm/core';
import { runTransform } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const sse = (payload: Record<string, unknown>): SseEvent => ({ event: payload.type as string, data: JSON.stringify(payload), id: undefined });
const decode = (events: SseEvent[]): Promise<LlmStreamEvent[]> => runTransform(openaiResponses.stream.decode(), events);
const errorOf = (event: LlmStreamEvent | undefined) => (event as Extract<LlmStreamEvent, { type: 'error' }>).error;

describe('upstream answers that do not decode (issue 17)', () => {
  it('a content part the decoder cannot read is an upstream error naming the path, not a 400', async () => {
    const events = await decode([
      sse({ type: 'response.created', response: { id: 'resp_1' } }),
      sse({ type: 'response.output_item.added', output_index: 0, item: { type: 'message' } }),
      sse({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'output_text' } }),
      sse({ type: 'response.content_part.done', output_index: 0, content_index: 0, part: 'not a part' }),
    ]);
    expect(events.map((event) => event.type)).toEqual(['start', 'block-start', 'error']);
    const error = errorOf(events[2]);
    expect(error.toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'invalid Responses stream event at part[0]',
      path: 'part[0]',
      protocol: 'openai-responses',
    });
    expect(error.cause).toMatchObject({ kind: 'invalid_request', message: 'part[0]: expected an object, got "not a part"' });
  });
});
