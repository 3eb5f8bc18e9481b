// Where the encoder reports each part's loss and each removed cache breakpoint: the encoder joins
// a part's path only when it reports a loss (a PartPath moved along the parts), and the breakpoint
// limit joins a block list's path only for a removed breakpoint. These pin the warnings (code,
// path, message) and the wire to what the encoder that joined a path per part gave
// (part-losses.expected.json, written by it).
import { readFileSync } from 'node:fs';
import type { LlmRequest } from '@llm/core';
import { encodeWithLosses, type LossAt } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';
import { PART_LOSS_REQUESTS } from './part-losses.cases.js';

const expected = JSON.parse(readFileSync(new URL('./part-losses.expected.json', import.meta.url), 'utf8')) as {
  encoded: Array<{ wire: unknown; losses: LossAt[] }>;
};

describe('part losses', () => {
  it('reports every loss at its part, the wire as pinned', () => {
    const encoded = PART_LOSS_REQUESTS.map((request) => encodeWithLosses(claude.request.encode, request as LlmRequest));
    expect(JSON.parse(JSON.stringify(encoded))).toEqual(expected.encoded);
    // Spelled out too: the paths are strings, joined at the part they name.
    expect(encoded[0]!.losses.map((loss) => loss.path)).toEqual([
      'max_tokens',
      'messages[1].name',
      'messages[1].content[1].detail',
      'messages[1].content[2]',
      'messages[1].content[3]',
      'messages[1].content[4]',
      'messages[2].name',
      'messages[2].content[0]',
      'messages[2].content[1]',
      'messages[2].content[2]',
      'messages[2].content[3].arguments',
      'messages[2].content[3]',
      'messages[2].content[5].arguments',
      'messages[2].content[6]',
      'messages[3].content[1].content[1].detail',
      'messages[3].content[2]',
      'messages[4].content[1]',
      'messages[6].content[0]',
      'messages[2].content[0].cache_control',
      'messages[2].content[1].content[0].cache_control',
      'messages[4].content[0].cache_control',
    ]);
    for (const loss of encoded[0]!.losses) expect(typeof loss.path).toBe('string');
  });
});
