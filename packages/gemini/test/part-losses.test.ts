// Where the encoder reports each part's loss, and how results without ids pair with calls: the
// encoder joins a part's path only when it reports a loss (a PartPath moved along the parts), and
// the decoder lists a model turn's calls only when a result without an id needs them. These pin
// the warnings (code and path) and the wire, and the decoded ids, to what the encoder and
// decoder that built a path per part and listed every call gave (part-losses.expected.json,
// written by them).
import { readFileSync } from 'node:fs';
import type { LlmRequest } from '@llm/core';
import { encodeWithLosses, type LossAt } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';
import { CALL_PAIRING_BODIES, PART_LOSS_REQUESTS } from './part-losses.cases.js';

const expected = JSON.parse(readFileSync(new URL('./part-losses.expected.json', import.meta.url), 'utf8')) as {
  encoded: Array<{ wire: unknown; losses: LossAt[] }>;
  paired: unknown[];
};

describe('part losses and call pairing', () => {
  it('reports every loss at its part, the wire as pinned', () => {
    const encoded = PART_LOSS_REQUESTS.map((request) => encodeWithLosses(gemini.request.encode, request as LlmRequest));
    expect(JSON.parse(JSON.stringify(encoded))).toEqual(expected.encoded);
    // Spelled out too: the paths are strings, joined at the part they name.
    expect(encoded[0]!.losses.map((loss) => loss.path)).toEqual([
      'messages[1].content[1].detail',
      'messages[1].content[2]',
      'messages[1].content[3]',
      'messages[1].content[4].citations',
      'messages[2].content[0]',
      'messages[2].content[1]',
      'messages[2].content[2]',
      'messages[2].content[3]',
      'messages[2].content[4].arguments',
      'messages[2].content[5]',
      'messages[2].content[6]',
      'messages[3].content[1].toolName',
      'messages[3].content[2].content[1].detail',
      'messages[3].content[2].content[2]',
      'messages[3].content[3].content',
      'messages[3].content[4]',
      'messages[4]',
      'messages[5].content[0]',
      'messages[5].content[1]',
    ]);
    for (const loss of encoded[0]!.losses) expect(typeof loss.path).toBe('string');
  });

  it('pairs results without ids with the calls before them, as pinned', () => {
    const paired = CALL_PAIRING_BODIES.map((body) => {
      const decoded = gemini.request.decode(body, { model: 'gemini-2.5-flash' });
      return { decoded, reencoded: gemini.request.encode(decoded) };
    });
    expect(JSON.parse(JSON.stringify(paired))).toEqual(expected.paired);
    const ids = paired[0]!.decoded.messages.flatMap((message) =>
      message.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : part.type === 'tool-result' ? [part.toolCallId] : [])),
    );
    expect(ids).toEqual(['call_0', 'own-g', 'call_1', 'own-g', 'call_0', 'call_1', 'call_2', 'k', 'k', 'k', 'call_3']);
  });
});
