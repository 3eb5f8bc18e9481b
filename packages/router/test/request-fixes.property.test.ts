import type { LlmMessage } from '@llm/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dropEmptyContent, midConversationSystemToUser, orderToolResults } from '../src/request-fixes.js';

// Small id pools make calls, results, orphans and out-of-order results all common.
const CALL_IDS = ['a', 'b', 'c', 'd'];

const text = fc.constantFrom('', 'hi', 'x');
const userMessage = fc
  .array(text, { minLength: 0, maxLength: 3 })
  .map((texts): LlmMessage => ({ role: 'user', content: texts.map((t) => ({ type: 'text', text: t })) }));
const systemMessage = text.map((t): LlmMessage => ({ role: 'system', content: [{ type: 'text', text: t }] }));
const assistantMessage = fc.record({ lead: fc.option(text, { nil: undefined }), calls: fc.uniqueArray(fc.constantFrom(...CALL_IDS), { maxLength: 3 }) }).map(
  ({ lead, calls }): LlmMessage => ({
    role: 'assistant',
    content: [
      ...(lead === undefined ? [] : [{ type: 'text' as const, text: lead }]),
      ...calls.map((id) => ({ type: 'tool-call' as const, id, name: `t_${id}`, arguments: '{}' })),
    ],
  }),
);
const toolMessage = fc
  .constantFrom(...CALL_IDS, 'orphan')
  .map((id): LlmMessage => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, content: `r_${id}` }] }));
const conversation = fc.array(fc.oneof(userMessage, systemMessage, assistantMessage, toolMessage, toolMessage), { maxLength: 10 });

/**
 * The order `orderToolResults` must produce, stated as sort keys: a result whose call is known
 * sorts right after the (last) assistant turn holding that call, by the call's position in it;
 * every other message keeps its own place.
 */
function expectedOrder(messages: LlmMessage[]): LlmMessage[] {
  const owner = new Map<string, number>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant') for (const part of message.content) if (part.type === 'tool-call') owner.set(part.id, index);
  });
  const keyed = messages.map((message, index) => {
    const result = message.role === 'tool' ? message.content.find((part) => part.type === 'tool-result') : undefined;
    const turn = result?.type === 'tool-result' ? owner.get(result.toolCallId) : undefined;
    if (turn === undefined || result?.type !== 'tool-result') return { message, place: index, rank: -1, index };
    const rank = (messages[turn] as LlmMessage).content.findIndex((part) => part.type === 'tool-call' && part.id === result.toolCallId);
    return { message, place: turn, rank, index };
  });
  keyed.sort((x, y) => x.place - y.place || x.rank - y.rank || x.index - y.index);
  return keyed.map((entry) => entry.message);
}

describe('request fixes (properties)', () => {
  it('orderToolResults puts every result after its call, in call order, and leaves ordered conversations as they are', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const ordered = orderToolResults(messages);
        expect(ordered).toEqual(expectedOrder(messages));
        // Ordered once, it is left alone: the same array comes back, nothing copied.
        expect(orderToolResults(ordered)).toBe(ordered);
      }),
      { numRuns: 500 },
    );
  });

  it('dropEmptyContent drops empty text parts and emptied turns, and copies nothing when there are none', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const expected = messages.flatMap((message) => {
          if (message.role !== 'user' && message.role !== 'assistant') return [message];
          const content = message.content.filter((part) => !(part.type === 'text' && part.text === ''));
          return content.length === 0 ? [] : [{ ...message, content } as LlmMessage];
        });
        const out = dropEmptyContent(messages);
        expect(out).toEqual(expected);
        if (out.length === messages.length && out.every((message, index) => message.content.length === messages[index]?.content.length)) {
          expect(out).toBe(messages);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('midConversationSystemToUser turns only later system messages into user text', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const firstTurn = messages.findIndex((message) => message.role !== 'system');
        const out = midConversationSystemToUser(messages);
        const moved = messages.some((message, index) => firstTurn >= 0 && index > firstTurn && message.role === 'system');
        if (!moved) expect(out).toBe(messages);
        expect(out.map((message) => message.role)).toEqual(
          messages.map((message, index) => (message.role === 'system' && firstTurn >= 0 && index > firstTurn ? 'user' : message.role)),
        );
      }),
      { numRuns: 300 },
    );
  });
});
