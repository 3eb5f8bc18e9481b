import { describe, expect, it } from 'vitest';
import { LlmError } from './errors.js';
import { collectUnknown, getExtensions, reportForeignExtensions, setExtensions, type WithExtensions } from './extensions.js';
import type { LlmWarning } from './warnings.js';

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

  it('reports the wire fields of a bag crossing to another protocol: plain keys and the members of $-named wire objects, not bookkeeping', () => {
    const target: WithExtensions = {
      extensions: {
        'openai-responses': {
          conversation: 'conv_1',
          include: ['reasoning.encrypted_content'],
          $noModel: true,
          $additionalTools: [{ at: 0 }],
          $reasoning: { context: 'all_turns', $kept: 1 },
        },
        claude: { container: 'c' },
      },
    };
    const warnings: LlmWarning[] = [];
    reportForeignExtensions(target, 'openai-responses', 'claude', { warn: (w) => warnings.push(w) });
    expect(warnings).toEqual([
      { code: 'dropped-field', path: 'conversation', message: 'openai-responses field conversation has no claude equivalent', protocol: 'openai-responses' },
      { code: 'dropped-field', path: 'include', message: 'openai-responses field include has no claude equivalent', protocol: 'openai-responses' },
      {
        code: 'dropped-field',
        path: 'reasoning.context',
        message: 'openai-responses field reasoning.context has no claude equivalent',
        protocol: 'openai-responses',
      },
    ]);
    // Same protocol: the codec writes them back, nothing is lost.
    reportForeignExtensions(target, 'openai-responses', 'openai-responses', { warn: (w) => warnings.push(w) });
    expect(warnings).toHaveLength(3);
    // Strict: the first loss is an unsupported error naming the field.
    let thrown: unknown;
    try {
      reportForeignExtensions(target, 'claude', 'gemini', { strict: true });
    } catch (error) {
      thrown = error;
    }
    expect(LlmError.isInstance(thrown) && thrown.kind === 'unsupported' && thrown.path === 'container').toBe(true);
  });
});
