import { describe, expect, it } from 'vitest';
import { LlmError } from './errors.js';
import { applyAuth, decodeUrlComponent, joinUrl, readCredential } from './http.js';

describe('joinUrl', () => {
  it('joins with exactly one slash', () => {
    expect(joinUrl('https://api.openai.com/v1', '/chat/completions')).toBe('https://api.openai.com/v1/chat/completions');
    expect(joinUrl('https://api.openai.com/v1/', '/chat/completions')).toBe('https://api.openai.com/v1/chat/completions');
    expect(joinUrl('https://api.anthropic.com', 'v1/messages')).toBe('https://api.anthropic.com/v1/messages');
  });
});

describe('applyAuth', () => {
  const target = () => ({ url: 'https://g.example/v1beta/models/m:generateContent', headers: {} as Record<string, string> });
  it('sets each scheme where its protocol expects it', () => {
    expect(applyAuth(target(), 'bearer', 'k').headers).toEqual({ authorization: 'Bearer k' });
    expect(applyAuth(target(), 'x-api-key', 'k').headers).toEqual({ 'x-api-key': 'k' });
    expect(applyAuth(target(), 'x-goog-api-key', 'k').headers).toEqual({ 'x-goog-api-key': 'k' });
    expect(applyAuth(target(), 'query-key', 'k&x').url).toBe('https://g.example/v1beta/models/m:generateContent?key=k%26x');
  });
});

describe('readCredential', () => {
  const url = new URL('http://localhost/v1beta/models/m:generateContent?key=from-query');
  it('reads the first scheme present, in the given order', () => {
    const headers = new Headers({ authorization: 'Bearer  sk-1 ', 'x-api-key': 'sk-2' });
    expect(readCredential(['bearer', 'x-api-key'], headers, url)).toBe('sk-1');
    expect(readCredential(['x-api-key', 'bearer'], headers, url)).toBe('sk-2');
    expect(readCredential(['x-goog-api-key', 'query-key'], new Headers(), url)).toBe('from-query');
    expect(readCredential(['x-goog-api-key'], new Headers({ 'x-goog-api-key': 'g' }), url)).toBe('g');
  });
  it('ignores other authorization forms and absent keys', () => {
    expect(readCredential(['bearer'], new Headers({ authorization: 'Basic abc' }), url)).toBeUndefined();
    expect(readCredential(['bearer', 'x-api-key'], new Headers(), new URL('http://localhost/'))).toBeUndefined();
  });
});

describe('decodeUrlComponent', () => {
  it('decodes, and turns bad percent-encoding into a 400 naming the path instead of a URIError', () => {
    expect(decodeUrlComponent('a%2Fb', 'model', 'model')).toBe('a/b');
    let caught: unknown;
    try {
      decodeUrlComponent('%ZZ', 'model', 'model', 'gemini');
    } catch (error) {
      caught = error;
    }
    expect(LlmError.isInstance(caught)).toBe(true);
    expect((caught as LlmError).toJSON()).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'model: the model in the URL is not valid percent-encoding',
      path: 'model',
      protocol: 'gemini',
    });
  });
});
