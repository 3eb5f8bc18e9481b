// Every canonical finish reason, as a Responses client reads it: the body's `status`, `error` and
// `incomplete_details`, and the same on the stream's terminal event (whose type names the status).
import { FINISH_REASONS, REFUSAL_FALLBACK_TEXT, responseToEvents, type LlmFinishReason, type LlmResponse } from '@llm/core';
import { encodeBothWays } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

interface Outcome {
  status: string;
  error: unknown;
  incomplete_details: unknown;
}

const completed: Outcome = { status: 'completed', error: null, incomplete_details: null };
const EXPECTED: Record<LlmFinishReason, { terminal: string; outcome: Outcome }> = {
  stop: { terminal: 'response.completed', outcome: completed },
  length: { terminal: 'response.incomplete', outcome: { status: 'incomplete', error: null, incomplete_details: { reason: 'max_output_tokens' } } },
  tool_calls: { terminal: 'response.completed', outcome: completed },
  content_filter: { terminal: 'response.incomplete', outcome: { status: 'incomplete', error: null, incomplete_details: { reason: 'content_filter' } } },
  // A refusal is a `refusal` part in a completed response (the fallback words when none was said).
  refusal: { terminal: 'response.completed', outcome: completed },
  // A paused turn is unfinished, for no reason the API names.
  pause: { terminal: 'response.incomplete', outcome: { status: 'incomplete', error: null, incomplete_details: null } },
  // A full context window stops the output as its token limit does.
  context_exceeded: {
    terminal: 'response.incomplete',
    outcome: { status: 'incomplete', error: null, incomplete_details: { reason: 'max_output_tokens' } },
  },
  error: { terminal: 'response.failed', outcome: { status: 'failed', error: { code: 'server_error', message: 'the model failed' }, incomplete_details: null } },
  other: { terminal: 'response.completed', outcome: completed },
};

const answer = (finishReason: LlmFinishReason): LlmResponse => ({
  id: 'resp_1',
  model: 'claude-sonnet-4-5',
  created: 1,
  choices: [{ index: 0, content: [{ type: 'text', text: 'Hi' }], finishReason }],
});

const outcomeOf = ({ status, error, incomplete_details }: Record<string, unknown>): Outcome => ({ status: status as string, error, incomplete_details });

describe('every canonical finish reason, both ways', () => {
  it('the table names each of FINISH_REASONS', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...FINISH_REASONS].sort());
  });

  it.each(FINISH_REASONS)('%s', (reason) => {
    const both = encodeBothWays(openaiResponses, answer(reason), responseToEvents);
    const terminal = both.chunks.at(-1) as { type: string; response: Record<string, unknown> };
    expect(outcomeOf(both.body as Record<string, unknown>)).toEqual(EXPECTED[reason].outcome);
    expect(terminal.type).toBe(EXPECTED[reason].terminal);
    expect(outcomeOf(terminal.response)).toEqual(EXPECTED[reason].outcome);
    const said = { type: 'output_text', annotations: [], text: 'Hi' };
    const refused = { type: 'refusal', refusal: REFUSAL_FALLBACK_TEXT };
    expect(terminal.response.output).toEqual([
      { id: 'msg_1_0', type: 'message', status: 'completed', content: reason === 'refusal' ? [said, refused] : [said], role: 'assistant' },
    ]);
    expect(terminal.response).toEqual(both.body);
    expect([both.bodyWarnings, both.streamWarnings]).toEqual([[], []]);
  });
});
