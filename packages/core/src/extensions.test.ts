import { describe, expect, it } from 'vitest';
import { collectUnknown, getExtensions, setExtensions, type WithExtensions } from './extensions.js';

describe('extensions', () => {
  it('collects unknown fields, or nothing when all are known', () => {
    const known = new Set(['model', 'messages']);
    expect(collectUnknown({ model: 'm', messages: [], logit_bias: { 1: 2 }, foo: null }, known)).toEqual({
      logit_bias: { 1: 2 },
      foo: null,
    });
    expect(collectUnknown({ model: 'm' }, known)).toBeUndefined();
  });

  it('stores per protocol, merges, and skips empty bags', () => {
    const target: WithExtensions = {};
    setExtensions(target, 'claude', undefined);
    setExtensions(target, 'claude', {});
    expect(target).toEqual({});
    setExtensions(target, 'claude', { container: 'c1' });
    setExtensions(target, 'claude', { mcp_servers: [] });
    setExtensions(target, 'gemini', { labels: { a: 'b' } });
    expect(target.extensions).toEqual({ claude: { container: 'c1', mcp_servers: [] }, gemini: { labels: { a: 'b' } } });
    expect(getExtensions(target, 'claude')).toEqual({ container: 'c1', mcp_servers: [] });
    expect(getExtensions(target, 'openai-chat')).toBeUndefined();
    expect(getExtensions(undefined, 'claude')).toBeUndefined();
  });
});
