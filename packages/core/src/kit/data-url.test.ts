import { describe, expect, it } from 'vitest';
import { dataUrl, parseDataUrl } from './data-url.js';

describe('data URLs', () => {
  it('splits base64 data URLs, parameters and missing media types included', () => {
    expect(parseDataUrl('data:image/png;base64,iVBOR')).toEqual({ mediaType: 'image/png', parameters: '', data: 'iVBOR' });
    expect(parseDataUrl('data:text/plain;charset=utf-8;base64,aGk=')).toEqual({
      mediaType: 'text/plain',
      parameters: ';charset=utf-8',
      data: 'aGk=',
    });
    expect(parseDataUrl('data:;base64,aGk=')).toEqual({ mediaType: '', parameters: '', data: 'aGk=' });
  });

  it('is undefined for anything else', () => {
    expect(parseDataUrl('https://example.com/a.png')).toBeUndefined();
    expect(parseDataUrl('data:text/plain,hello')).toBeUndefined();
  });

  it('builds one', () => {
    expect(dataUrl('image/png', 'iVBOR')).toBe('data:image/png;base64,iVBOR');
  });
});
