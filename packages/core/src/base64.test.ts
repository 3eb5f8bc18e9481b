import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64, bytesToBase64Url, sameBase64 } from './base64.js';

describe('base64', () => {
  it('encodes both alphabets', () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xbf, 0x00]);
    expect(bytesToBase64(bytes)).toBe('+/+/AA==');
    expect(bytesToBase64Url(bytes)).toBe('-_-_AA');
  });

  it('decodes either alphabet, with or without padding', () => {
    expect([...(base64ToBytes('+/+/AA==') ?? [])]).toEqual([0xfb, 0xff, 0xbf, 0x00]);
    expect([...(base64ToBytes('-_-_AA') ?? [])]).toEqual([0xfb, 0xff, 0xbf, 0x00]);
  });

  it('rejects text that is not base64', () => {
    expect(base64ToBytes('not base64!')).toBeUndefined();
    expect(base64ToBytes('abcde')).toBeUndefined();
  });

  it('compares signatures by bytes, not spelling (Gemini sends base64, others base64url)', () => {
    expect(sameBase64('+/+/AA==', '-_-_AA')).toBe(true);
    expect(sameBase64('+/+/AA==', '-_-_AQ')).toBe(false);
    expect(sameBase64('x!', 'x!')).toBe(true);
    expect(sameBase64('x!', 'y!')).toBe(false);
  });

  it('round-trips any bytes, large ones included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000, size: 'large' }), (bytes) => {
        expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes);
        expect(base64ToBytes(bytesToBase64Url(bytes))).toEqual(bytes);
      }),
      propertyRuns(50),
    );
  });
});
