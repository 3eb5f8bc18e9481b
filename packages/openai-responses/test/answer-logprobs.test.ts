import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

/** A completed answer with one `output_text` part carrying `logprobs`. */
function answer(logprobs: unknown[]) {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    status: 'completed',
    model: 'gpt-test',
    output: [
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hi', annotations: [], logprobs }],
      },
    ],
    usage: { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 },
  };
}

describe('an answer’s output_text logprobs', () => {
  it('an empty list (what the API writes when none were asked for) is no logprobs, and goes back to Responses unchanged', () => {
    const wire = answer([]);
    const decoded = openaiResponses.response.decode(structuredClone(wire));
    expect(decoded.choices[0]?.logprobs).toBeUndefined();
    const encoded = openaiResponses.response.encode(decoded) as unknown as { output: { content: unknown[] }[] };
    expect(encoded.output[0]?.content).toEqual([{ type: 'output_text', text: 'Hi', annotations: [], logprobs: [] }]);
  });

  it('tokens are the choice’s logprobs', () => {
    const decoded = openaiResponses.response.decode(answer([{ token: 'Hi', bytes: [72, 105], logprob: -0.5, top_logprobs: [] }]));
    expect(decoded.choices[0]?.logprobs).toEqual([{ token: 'Hi', bytes: [72, 105], logprob: -0.5, top: [] }]);
  });
});
