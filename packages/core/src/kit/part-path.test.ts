import { describe, expect, it } from 'vitest';
import { PartPath, partPathAt } from './part-path.js';

describe('PartPath', () => {
  it('joins the path of the part it is at when read', () => {
    const path = new PartPath();
    expect(String(path)).toBe('messages[0].content[0]');
    path.message = 12;
    path.part = 3;
    expect(String(path)).toBe('messages[12].content[3]');
    expect(`${path}.arguments`).toBe('messages[12].content[3].arguments');
    path.part = 0;
    expect(`${path}`).toBe('messages[12].content[0]');
  });
});

describe('partPathAt', () => {
  it('joins a part under a message path, or moves a PartPath to it', () => {
    expect(partPathAt('choices[0]', 2)).toBe('choices[0].content[2]');
    const path = new PartPath();
    path.message = 4;
    expect(partPathAt(path, 1)).toBe('messages[4].content[1]');
    expect(path.part).toBe(1);
  });
});
