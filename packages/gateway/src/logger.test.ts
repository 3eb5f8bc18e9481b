import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './logger.js';

describe('createLogger', () => {
  it('censors keys and auth headers', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    logger.info(
      { headers: { authorization: 'Bearer s1', 'x-api-key': 's2', 'x-goog-api-key': 's3', accept: 'x' }, apiKey: 's4', upstreams: { a: { apiKey: 's5' } } },
      'hello',
    );
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry.headers).toEqual({ authorization: '[redacted]', 'x-api-key': '[redacted]', 'x-goog-api-key': '[redacted]', accept: 'x' });
    expect(entry.apiKey).toBe('[redacted]');
    expect(entry.upstreams).toEqual({ a: { apiKey: '[redacted]' } });
    expect(entry.msg).toBe('hello');
  });

  it('removes ?key= from logged URLs', () => {
    expect(redactUrl(new URL('http://h/v1beta/models/m:generateContent?key=secret&alt=sse'))).toBe(
      '/v1beta/models/m:generateContent?key=%5Bredacted%5D&alt=sse',
    );
    expect(redactUrl(new URL('http://h/v1/messages?beta=true'))).toBe('/v1/messages?beta=true');
    expect(redactUrl(new URL('http://h/v1/messages'))).toBe('/v1/messages');
  });

  it('redacts the key parameter however its name is encoded, every occurrence of it', () => {
    expect(redactUrl(new URL('http://h/v1beta/models/m:generateContent?%6Bey=secret&alt=sse'))).toBe(
      '/v1beta/models/m:generateContent?key=%5Bredacted%5D&alt=sse',
    );
    expect(redactUrl(new URL('http://h/p?k%65%79=s1&key=s2&x=%6Bey'))).toBe('/p?key=%5Bredacted%5D&key=%5Bredacted%5D&x=key');
  });

  it('redacts the key parameter in any case, decoded or not (?KEY=, ?Key=, ?%4BEY=)', () => {
    expect(redactUrl(new URL('http://h/p?KEY=s1&alt=sse'))).toBe('/p?KEY=%5Bredacted%5D&alt=sse');
    expect(redactUrl(new URL('http://h/p?Key=s1'))).toBe('/p?Key=%5Bredacted%5D');
    expect(redactUrl(new URL('http://h/p?%4BEY=s1&monkey=m'))).toBe('/p?KEY=%5Bredacted%5D&monkey=m');
  });
});
