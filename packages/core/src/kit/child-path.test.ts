import { describe, expect, it } from 'vitest';
import { ChildPath } from './child-path.js';
import { wireReader } from './wire-reader.js';

describe('ChildPath', () => {
  it('joins its chain when read, at the keys it holds then', () => {
    const message = new ChildPath('messages', 0);
    const content = new ChildPath(message, 'content');
    const block = new ChildPath(content, 0);
    message.key = 3;
    block.key = 2;
    expect(String(block)).toBe('messages[3].content[2]');
    expect(`${content}`).toBe('messages[3].content');
    expect(String(new ChildPath('', 'a b'))).toBe('["a b"]');
  });

  it("names the error path of a wire reader's failure", () => {
    const read = wireReader('claude');
    const block = new ChildPath(new ChildPath(new ChildPath('messages', 4), 'content'), 1);
    expect(() => read.string({ text: 1 }, 'text', block)).toThrow(expect.objectContaining({ path: 'messages[4].content[1].text' }));
    expect(() => read.object([1], 0, new ChildPath('messages', 'x'))).toThrow(expect.objectContaining({ path: 'messages.x[0]' }));
  });
});
