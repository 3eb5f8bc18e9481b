import type { LlmStreamEvent, SseEvent } from '@llm/core';
import { runTransform } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const data = (payload: unknown): SseEvent => ({ data: typeof payload === 'string' ? payload : JSON.stringify(payload), event: undefined, id: undefined });
const decode = (events: SseEvent[]): Promise<LlmStreamEvent[]> => runTransform(openaiChat.stream.decode(), events);

describe('upstream answers that do not decode (issue 17)', () => {
  it('a stream chunk that is not JSON ends the stream with a stable upstream error, the parser message kept as cause', async () => {
    const events = await decode([data('{"choices": [')]);
    expect(events).toHaveLength(1);
    const error = (events[0] as Extract<LlmStreamEvent, { type: 'error' }>).error;
    expect(error.toJSON()).toEqual({ kind: 'upstream', status: 502, message: 'invalid Chat Completions stream chunk', protocol: 'openai-chat' });
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('a usage object the decoder cannot read is an upstream error naming the path, not a 400', async () => {
    const events = await decode([data({ id: 'c', choices: [], usage: { prompt_tokens: 'many' } })]);
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    const error = (events.at(-1) as Extract<LlmStreamEvent, { type: 'error' }>).error;
    expect(error.toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'invalid Chat Completions stream chunk at usage.prompt_tokens',
      path: 'usage.prompt_tokens',
      protocol: 'openai-chat',
    });
  });
});
