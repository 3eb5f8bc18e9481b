import { describe, expect, it } from 'vitest';
import { withoutPromptFilterAnnouncements } from './azure-stream.js';

const ANNOUNCEMENT =
  'data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}\n\n';
const CHUNK = 'data: {"id":"c1","model":"gpt-4o","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n';
const DONE = 'data: [DONE]\n\n';

async function run(pieces: string[]): Promise<string> {
  async function* source() {
    for (const piece of pieces) yield new TextEncoder().encode(piece);
  }
  let out = '';
  for await (const chunk of withoutPromptFilterAnnouncements(source())) out += new TextDecoder().decode(chunk);
  return out;
}

describe('withoutPromptFilterAnnouncements', () => {
  it('drops the announcement at the head, split anywhere, and passes the rest as it is', async () => {
    const whole = ANNOUNCEMENT + CHUNK + DONE;
    for (let cut = 1; cut < whole.length; cut += 7) expect(await run([whole.slice(0, cut), whole.slice(cut)])).toBe(CHUNK + DONE);
  });

  it('keeps a no-choice chunk that has an id (the usage chunk) and everything after the head', async () => {
    const usage = 'data: {"id":"c1","choices":[],"usage":{"prompt_tokens":1},"prompt_filter_results":[]}\n\n';
    expect(await run([usage, ANNOUNCEMENT])).toBe(usage + ANNOUNCEMENT);
    expect(await run([CHUNK, ANNOUNCEMENT, DONE])).toBe(CHUNK + ANNOUNCEMENT + DONE);
  });

  it('passes a stream with no announcement unchanged, and an unfinished head at its end', async () => {
    expect(await run([CHUNK, DONE])).toBe(CHUNK + DONE);
    expect(await run(['data: {"choi'])).toBe('data: {"choi');
  });
});
