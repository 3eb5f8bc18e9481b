import { describe, expect, it } from 'vitest';
import type { LlmWarning } from './warnings.js';
import { choiceWithoutHostedTools, domainList, reportWebSearchSettings, userLocationFromWire, userLocationToWire } from './hosted-tools.js';

describe('hosted tool helpers', () => {
  it('reads the shared location members; anything else makes it inexact', () => {
    expect(userLocationFromWire({ type: 'approximate', city: 'Paris', country: 'FR' })).toEqual({ location: { city: 'Paris', country: 'FR' }, exact: true });
    expect(userLocationFromWire({ type: 'approximate', city: null, country: 'FR' })).toEqual({ location: { country: 'FR' }, exact: false });
    expect(userLocationFromWire({ type: 'exact', zip: '75001' })).toEqual({ exact: false });
    expect(userLocationFromWire(null)).toEqual({ exact: false });
    expect(Object.keys(userLocationToWire({ timezone: 'Europe/Paris', country: 'FR', city: 'Paris' }))).toEqual(['city', 'country', 'timezone']);
  });

  it('reports each setting the target lacks and each foreign wire field, never bookkeeping', () => {
    const warnings: LlmWarning[] = [];
    reportWebSearchSettings(
      {
        type: 'web_search',
        name: 'web_search',
        maxUses: 2,
        contextSize: 'low',
        userLocation: { country: 'FR' },
        extensions: { claude: { $type: 'web_search_20260209', cache_control: { type: 'ephemeral' } }, gemini: { $tool: 0 } },
      },
      'tools[1]',
      ['userLocation', 'contextSize'],
      'openai-chat',
      { warn: (warning) => warnings.push(warning) },
    );
    expect(warnings).toEqual([
      { code: 'dropped-field', path: 'tools[1].maxUses', message: 'web search maxUses has no openai-chat equivalent', protocol: 'openai-chat' },
      {
        code: 'dropped-field',
        path: 'tools[1].cache_control',
        message: 'claude web_search field cache_control has no openai-chat equivalent',
        protocol: 'openai-chat',
      },
    ]);
  });

  it('a domain list is an array of strings', () => {
    expect(domainList(['a.test'])).toEqual(['a.test']);
    expect(domainList(['a.test', 1])).toBeUndefined();
    expect(domainList('a.test')).toBeUndefined();
  });

  it('a choice naming the web search keeps the other names, else auto, else nothing', () => {
    const search = { type: 'web_search' as const, name: 'web_search' };
    const read = { type: 'function' as const, name: 'read' };
    const warnings: string[] = [];
    const context = { warn: (warning: LlmWarning) => warnings.push(`${warning.code}@${warning.path}`) };
    expect(choiceWithoutHostedTools({ type: 'allowed', names: ['web_search', 'read'], mode: 'required' }, [search, read], 'gemini', context)).toEqual({
      type: 'allowed',
      names: ['read'],
      mode: 'required',
    });
    expect(choiceWithoutHostedTools({ type: 'tool', name: 'web_search' }, [search, read], 'gemini', context)).toEqual({ type: 'auto' });
    expect(choiceWithoutHostedTools({ type: 'tool', name: 'web_search' }, [search], 'gemini', context)).toBeUndefined();
    expect(choiceWithoutHostedTools({ type: 'tool', name: 'read' }, [search, read], 'gemini', context)).toEqual({ type: 'tool', name: 'read' });
    expect(choiceWithoutHostedTools({ type: 'required' }, [search, read], 'gemini', context)).toEqual({ type: 'required' });
    expect(warnings).toEqual(['dropped-field@tool_choice', 'dropped-field@tool_choice', 'dropped-field@tool_choice']);
  });
});
