// Malformed messages and blocks at several positions: the decoder joins a message's and a block's
// path only for an error (one ChildPath chain moved along the messages), and these pin every
// error (status, message, path) to what the decoder that joined them for every block gave
// (block-errors.expected.json, written by it).
import { readFileSync } from 'node:fs';
import { decodeFailure } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';
import { BAD_BLOCK_BODIES } from './block-errors.cases.js';

const expected = JSON.parse(readFileSync(new URL('./block-errors.expected.json', import.meta.url), 'utf8')) as Array<{ error: unknown }>;

describe('block errors', () => {
  it('fail exactly as pinned, at the message and block they name', () => {
    const failures = BAD_BLOCK_BODIES.map((body) => ({ error: decodeFailure((wire) => claude.request.decode(wire), body) }));
    expect(failures).toEqual(expected);
    expect(failures.map((failure) => failure.error?.path)).toContain('messages[3].content[0].content[0].text');
    for (const failure of failures) expect(typeof failure.error?.path).toBe('string');
  });
});
