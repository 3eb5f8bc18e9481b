import type { LlmResponse, LlmStreamEvent, LlmWarning, SseEvent } from '@llm/core';
import { runTransform } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

const sse = (payload: unknown): SseEvent => ({ data: JSON.stringify(payload), event: undefined, id: undefined });
const URL = 'https://blog.rust-lang.org/2027';

describe('Google Search grounding <-> citations', () => {
  it('a streamed text block is cited by the grounding on the finishing chunk, ranges over the whole block in UTF-16', async () => {
    const events: LlmStreamEvent[] = await runTransform(gemini.stream.decode(), [
      sse({ candidates: [{ content: { role: 'model', parts: [{ text: 'L’édition ' }] }, index: 0 }], responseId: 'r1', modelVersion: 'g' }),
      sse({
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'sort en 2027.' }] },
            finishReason: 'STOP',
            index: 0,
            groundingMetadata: {
              groundingChunks: [{ web: { uri: URL, title: 'Rust' } }],
              groundingSupports: [{ segment: { startIndex: 13, endIndex: 26, text: 'sort en 2027.' }, groundingChunkIndices: [0] }],
            },
          },
        ],
      }),
    ]);
    expect(events.filter((event) => event.type === 'citation' || event.type === 'block-end')).toEqual([
      { type: 'citation', index: 0, citation: { kind: 'url', url: URL, title: 'Rust', startIndex: 10, endIndex: 23 } },
      { type: 'block-end', index: 0 },
    ]);
  });

  it('an answer from elsewhere: URL citations become grounding, a document citation is reported', () => {
    const warnings: LlmWarning[] = [];
    const response: LlmResponse = {
      id: 'msg_1',
      model: 'claude',
      choices: [
        {
          index: 0,
          finishReason: 'stop',
          content: [
            { type: 'text', text: 'Intro. ' },
            {
              type: 'text',
              text: 'Née en 2027.',
              citations: [
                { kind: 'url', url: URL, title: 'Rust' },
                { kind: 'url', url: URL, startIndex: 0, endIndex: 3 },
                { kind: 'document', documentIndex: 0, citedText: 'x' },
              ],
            },
          ],
        },
      ],
    };
    const body = gemini.response.encode(response, { warn: (warning) => warnings.push(warning) });
    expect(body.candidates?.[0]).toEqual({
      content: { parts: [{ text: 'Intro. ' }, { text: 'Née en 2027.' }], role: 'model' },
      groundingMetadata: {
        groundingChunks: [{ web: { uri: URL, title: 'Rust' } }],
        groundingSupports: [
          { segment: { partIndex: 1, startIndex: 0, endIndex: 13, text: 'Née en 2027.' }, groundingChunkIndices: [0] },
          { segment: { partIndex: 1, startIndex: 0, endIndex: 4, text: 'Née' }, groundingChunkIndices: [0] },
        ],
      },
      finishReason: 'STOP',
      index: 0,
    });
    expect(warnings).toEqual([
      { code: 'dropped-field', path: 'choices[0].content[1].citations[2]', message: 'Gemini grounding cites web pages only', protocol: 'gemini' },
    ]);
  });
});
