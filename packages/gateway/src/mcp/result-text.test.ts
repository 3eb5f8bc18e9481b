import { describe, expect, it } from 'vitest';
import { resultTextParts } from './result-text.js';

describe('resultTextParts', () => {
  it('keeps text, describes media and binary resources, keeps text resources with their URI', () => {
    const parts = resultTextParts(
      {
        content: [
          { type: 'text', text: 'hello' },
          { type: 'image', mimeType: 'image/png', data: 'AAAAAA==' },
          { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
          { type: 'resource', resource: { uri: 'file:///b.txt', text: 'bee' } },
          { type: 'resource', resource: { uri: 'file:///c.bin', mimeType: 'application/octet-stream', blob: 'AAAAAAAA' } },
          { type: 'hologram' },
        ],
      },
      10_000,
    );
    expect(parts).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'text', text: '[image image/png, 4 bytes, dropped by the gateway]' },
      { type: 'text', text: '[audio audio/wav, 3 bytes, dropped by the gateway]' },
      { type: 'text', text: '[resource link file:///a.txt (a)]' },
      { type: 'text', text: '[resource file:///b.txt]\nbee' },
      { type: 'text', text: '[resource file:///c.bin application/octet-stream, 6 bytes, dropped by the gateway]' },
      { type: 'text', text: '[hologram content, dropped by the gateway]' },
    ]);
  });

  it('gives structured content as JSON when there are no blocks, and an empty text for nothing', () => {
    expect(resultTextParts({ content: [], structuredContent: { sum: 3 } }, 100)).toEqual([{ type: 'text', text: '{"sum":3}' }]);
    expect(resultTextParts({}, 100)).toEqual([{ type: 'text', text: '' }]);
  });

  it('cuts across blocks at the byte limit, never inside a character, and says so', () => {
    expect(
      resultTextParts(
        {
          content: [
            { type: 'text', text: 'abcd' },
            { type: 'text', text: 'éé' },
            { type: 'text', text: 'zz' },
          ],
        },
        7,
      ),
    ).toEqual([
      { type: 'text', text: 'abcd' },
      { type: 'text', text: 'é' },
      { type: 'text', text: '[result cut by the gateway: 7 of 10 bytes shown]' },
    ]);
  });

  it('never splits a surrogate pair at the cut', () => {
    expect(resultTextParts({ content: [{ type: 'text', text: 'ab😀c' }] }, 5)).toEqual([
      { type: 'text', text: 'ab' },
      { type: 'text', text: '[result cut by the gateway: 5 of 7 bytes shown]' },
    ]);
  });
});
