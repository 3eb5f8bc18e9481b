import { describe, expect, it } from 'vitest';
import { byBaseUrl } from './upstream-by-url.js';

describe('byBaseUrl', () => {
  const upstreamOf = byBaseUrl([
    { base: 'http://h/v1', value: 'a' },
    { base: 'http://h/v1/b/', value: 'b' },
  ]);

  it('finds the longest base that starts the URL, trailing slashes aside', () => {
    expect(upstreamOf('http://h/v1/chat/completions')).toBe('a');
    expect(upstreamOf('http://h/v1/b/chat/completions')).toBe('b');
    expect(upstreamOf('http://h/v1/b')).toBe('b');
    expect(upstreamOf('http://h/v1?x=1')).toBe('a');
    expect(upstreamOf('http://h/v1')).toBe('a');
  });

  it('matches a base only up to a path segment: `/v1` is not the base of `/v10/...` or `/v1b`', () => {
    expect(upstreamOf('http://h/v10/chat/completions')).toBeUndefined();
    expect(upstreamOf('http://h/v1/bb/chat')).toBe('a');
    expect(upstreamOf('http://h/v1b')).toBeUndefined();
    expect(upstreamOf('http://other/v1/chat')).toBeUndefined();
  });
});
