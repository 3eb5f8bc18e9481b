import { describe, expect, it } from 'vitest';
import { cacheHintFromWire, cacheHintToWire, reportCacheHints } from './cache-hint.js';
import type { LlmRequest } from './request.js';
import type { LlmWarning } from './warnings.js';

describe('cache hints', () => {
  it('reads only the modelled wire shapes, and writes them back', () => {
    expect(
      [
        { type: 'ephemeral' },
        { type: 'ephemeral', ttl: '1h' },
        { type: 'ephemeral', ttl: '2h' },
        { type: 'persistent' },
        { type: 'ephemeral', ttl: '5m', x: 1 },
        null,
        'ephemeral',
      ].map(cacheHintFromWire),
    ).toEqual([{}, { ttl: '1h' }, undefined, undefined, undefined, undefined, undefined]);
    expect([cacheHintToWire({}), cacheHintToWire({ ttl: '5m' })]).toEqual([{ type: 'ephemeral' }, { type: 'ephemeral', ttl: '5m' }]);
  });

  it('reports every hint on parts, function tools and the request at its canonical path, skipping the ones a codec keeps', () => {
    const kept = { type: 'text' as const, text: 'mine', cache: {} };
    const request = {
      model: 'm',
      cache: { ttl: '1h' },
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'rules', cache: {} }] },
        { role: 'user', content: [{ type: 'text', text: 'plain' }, kept] },
      ],
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, cache: {} }],
    } as unknown as LlmRequest;
    const warnings: LlmWarning[] = [];
    reportCacheHints(request, { warn: (warning) => warnings.push(warning) }, 'gemini', 'no breakpoints', (target) => target === kept);
    const dropped = (path: string): LlmWarning => ({ code: 'dropped-field', path, message: 'no breakpoints', protocol: 'gemini' });
    expect(warnings).toEqual([dropped('messages[0].content[0].cache'), dropped('tools[0].cache'), dropped('cache')]);
  });
});
