import { describe, expect, it } from 'vitest';
import { matchesGlob, modelFamilyPreset, resolveRoute } from '../src/routing.js';
import { MemoryStateStore } from '../src/state-store.js';

describe('routing', () => {
  it('matches globs', () => {
    expect(matchesGlob('claude-*', 'claude-sonnet-4')).toBe(true);
    expect(matchesGlob('gpt-?o', 'gpt-4o')).toBe(true);
    expect(matchesGlob('gpt-?o', 'gpt-44o')).toBe(false);
    expect(matchesGlob('a.b', 'axb')).toBe(false);
  });

  it('prefers exact names, rewrites the model and lists fallbacks', () => {
    const routes = [
      { match: 'gpt-*', upstream: 'openai' },
      { match: 'gpt-4o', upstream: ['azure', 'openai'], model: 'gpt-4o-2024' },
    ];
    expect(resolveRoute(routes, 'gpt-4o')).toEqual({
      rule: routes[1],
      targets: [
        { name: 'azure', model: 'gpt-4o-2024' },
        { name: 'openai', model: 'gpt-4o-2024' },
      ],
      upstreams: ['azure', 'openai'],
      model: 'gpt-4o-2024',
    });
    expect(resolveRoute(routes, 'gpt-5')).toEqual({ rule: routes[0], targets: [{ name: 'openai', model: 'gpt-5' }], upstreams: ['openai'], model: 'gpt-5' });
    expect(resolveRoute(routes, 'claude')).toBeUndefined();
  });

  it('names the model per upstream of a chain; strings keep the route model', () => {
    const routes = [
      { match: 'smart', upstream: [{ name: 'anthropic', model: 'claude-x' }, 'azure', { name: 'openai', model: 'gpt-y' }], model: 'fallback-model' },
    ];
    expect(resolveRoute(routes, 'smart')?.targets).toEqual([
      { name: 'anthropic', model: 'claude-x' },
      { name: 'azure', model: 'fallback-model' },
      { name: 'openai', model: 'gpt-y' },
    ]);
    expect(resolveRoute(routes, 'smart')?.strategy).toBeUndefined();
  });

  it('a weight makes the route balanced (weighted by default); a strategy names another', () => {
    const weighted = resolveRoute([{ match: 'm', upstream: [{ name: 'a', weight: 3 }, { name: 'b' }] }], 'm');
    expect(weighted?.strategy).toBe('weighted');
    expect(weighted?.targets).toEqual([
      { name: 'a', model: 'm', weight: 3 },
      { name: 'b', model: 'm' },
    ]);
    expect(resolveRoute([{ match: 'm', upstream: ['a', 'b'], strategy: 'least-busy' as const }], 'm')?.strategy).toBe('least-busy');
  });

  it('the model-family preset sends o-series to Responses, gpt to Chat, claude to Anthropic', () => {
    const routes = modelFamilyPreset({ openaiResponses: 'resp', openaiChat: 'chat', claude: 'anthropic', gemini: 'google' });
    expect(resolveRoute(routes, 'o3-mini')?.upstreams).toEqual(['resp']);
    expect(resolveRoute(routes, 'gpt-5-codex')?.upstreams).toEqual(['resp']);
    expect(resolveRoute(routes, 'gpt-4.1')?.upstreams).toEqual(['chat']);
    expect(resolveRoute(routes, 'claude-opus-4')?.upstreams).toEqual(['anthropic']);
    expect(resolveRoute(routes, 'gemini-2.5-pro')?.upstreams).toEqual(['google']);
  });
});

describe('MemoryStateStore', () => {
  it('is bounded by entries and time to live', async () => {
    let now = 0;
    const store = new MemoryStateStore({ maxEntries: 2, ttlMs: 100, now: () => now });
    await store.set('a', 1);
    await store.set('b', 2);
    await store.set('c', 3);
    expect(store.size).toBe(2);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('c')).toBe(3);
    now = 100;
    expect(await store.get('c')).toBeUndefined();
  });
});
