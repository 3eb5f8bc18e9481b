// Every canonical finish reason as a Gemini client sees it, in a JSON answer and in a stream: a
// refusal is Gemini's safety finish, and nothing that went wrong reads as a normal `STOP`.
import { responseToEvents, type LlmChoice, type LlmFinishReason, type LlmResponse } from '@llm/core';
import { encodeBothWays } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

const answer = (choice: Omit<LlmChoice, 'index'>): LlmResponse => ({ id: 'r1', model: 'claude-sonnet-4-5', choices: [{ index: 0, ...choice }] });
const meta = { modelVersion: 'claude-sonnet-4-5', responseId: 'r1' };

describe('finish reasons encoded for Gemini clients, JSON and stream', () => {
  it.each<[LlmFinishReason, string]>([
    ['stop', 'STOP'],
    ['length', 'MAX_TOKENS'],
    ['tool_calls', 'STOP'],
    ['content_filter', 'SAFETY'],
    ['refusal', 'SAFETY'],
    ['pause', 'OTHER'],
    ['context_exceeded', 'MAX_TOKENS'],
    ['error', 'OTHER'],
    ['other', 'OTHER'],
  ])('%s is %s', (reason, wire) => {
    const both = encodeBothWays(gemini, answer({ content: [{ type: 'text', text: 'x' }], finishReason: reason }), responseToEvents);
    expect(both.body).toEqual({ candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, finishReason: wire, index: 0 }], ...meta });
    expect(both.chunks).toEqual([
      { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, index: 0 }], ...meta },
      { candidates: [{ finishReason: wire, index: 0 }], ...meta },
    ]);
  });

  it('a Claude classifier refusal with no text is SAFETY with no parts', () => {
    const both = encodeBothWays(gemini, answer({ content: [], finishReason: 'refusal', rawFinishReason: 'refusal' }), responseToEvents);
    expect(both.body).toEqual({ candidates: [{ content: { parts: [], role: 'model' }, finishReason: 'SAFETY', index: 0 }], ...meta });
    expect(both.chunks).toEqual([{ candidates: [{ finishReason: 'SAFETY', index: 0 }], ...meta }]);
  });

  it('a refusal part that finished stop (an OpenAI Chat message.refusal) is SAFETY, its text kept', () => {
    const both = encodeBothWays(
      gemini,
      answer({ content: [{ type: 'refusal', text: 'I can’t help with that.' }], finishReason: 'stop', rawFinishReason: 'stop' }),
      responseToEvents,
    );
    const parts = [{ text: 'I can’t help with that.' }];
    expect(both.body).toEqual({ candidates: [{ content: { parts, role: 'model' }, finishReason: 'SAFETY', index: 0 }], ...meta });
    expect(both.chunks).toEqual([
      { candidates: [{ content: { parts, role: 'model' }, index: 0 }], ...meta },
      { candidates: [{ finishReason: 'SAFETY', index: 0 }], ...meta },
    ]);
  });

  it('a refusal in one candidate does not make another candidate a refusal', () => {
    const response: LlmResponse = {
      id: 'r1',
      model: 'gpt-4o',
      choices: [
        { index: 0, content: [{ type: 'refusal', text: 'no' }], finishReason: 'stop' },
        { index: 1, content: [{ type: 'text', text: 'yes' }], finishReason: 'stop' },
      ],
    };
    const both = encodeBothWays(gemini, response, responseToEvents);
    expect((both.body as { candidates: Array<{ finishReason: string }> }).candidates.map((candidate) => candidate.finishReason)).toEqual(['SAFETY', 'STOP']);
    expect(both.chunks).toEqual([
      { candidates: [{ content: { parts: [{ text: 'no' }], role: 'model' }, index: 0 }], modelVersion: 'gpt-4o', responseId: 'r1' },
      { candidates: [{ finishReason: 'SAFETY', index: 0 }], modelVersion: 'gpt-4o', responseId: 'r1' },
      { candidates: [{ content: { parts: [{ text: 'yes' }], role: 'model' }, index: 1 }], modelVersion: 'gpt-4o', responseId: 'r1' },
      { candidates: [{ finishReason: 'STOP', index: 1 }], modelVersion: 'gpt-4o', responseId: 'r1' },
    ]);
  });
});
