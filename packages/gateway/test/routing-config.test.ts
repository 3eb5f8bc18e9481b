import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/expand-env.js';
import { parseConfig, toRouterConfig } from '../src/config/load.js';
import { recordFields } from '../src/access-log.js';
import type { RequestRecord } from '../src/router-contract.js';
import { knownModels } from '../src/metrics.js';

// Issue 21: routes with per-upstream models, weights and strategies, rotating keys, retry
// backoff, circuit breaking and reroutes, from the config file to the router.
const upstreams =
  'upstreams: { anthropic: { protocol: claude, baseUrl: "http://a", apiKeys: [k1, k2] }, openai: { protocol: openai-chat, baseUrl: "http://o/v1", apiKey: k } }';

function problemsOf(text: string): string[] {
  try {
    parseConfig(text, {});
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message.split('\n');
  }
  throw new Error('the config was accepted');
}

describe('routing config', () => {
  it('maps per-upstream models, weights, strategies, reroutes, keys, retry and circuit breaking to the router', () => {
    const config = parseConfig(
      [
        upstreams,
        'routes:',
        '  - { match: smart, upstream: [{ name: anthropic, model: claude-x }, { name: openai, model: gpt-y }], contextFallback: big, contentPolicyFallback: big }',
        '  - { match: big, upstream: [{ name: anthropic, weight: 3 }, { name: openai, weight: 1 }], strategy: lowest-latency }',
        '  - { match: "*", upstream: openai }',
        'retry: { baseDelayMs: 250, maxDelayMs: 8000 }',
        'circuitBreaker: { failures: 3, windowMs: 10000, cooldownMs: 5000 }',
      ].join('\n'),
      {},
    );
    const router = toRouterConfig(config);
    expect(router.routes).toEqual([
      {
        match: 'smart',
        upstream: [
          { name: 'anthropic', model: 'claude-x' },
          { name: 'openai', model: 'gpt-y' },
        ],
        contextFallback: 'big',
        contentPolicyFallback: 'big',
      },
      {
        match: 'big',
        upstream: [
          { name: 'anthropic', weight: 3 },
          { name: 'openai', weight: 1 },
        ],
        strategy: 'lowest-latency',
      },
      { match: '*', upstream: 'openai' },
    ]);
    expect(router.upstreams.anthropic).toEqual({ protocol: 'claude', baseUrl: 'http://a', apiKeys: ['k1', 'k2'] });
    expect([router.retryBaseDelayMs, router.maxRetryDelayMs, router.circuitBreaker]).toEqual([250, 8000, { failures: 3, windowMs: 10000, cooldownMs: 5000 }]);
    expect(toRouterConfig(parseConfig(`${upstreams}\nroutes: [{ match: "*", upstream: openai }]\ncircuitBreaker: false`, {})).circuitBreaker).toBe(false);
  });

  it('leaves the router defaults when retry and circuitBreaker are absent', () => {
    const router = toRouterConfig(parseConfig(`${upstreams}\nroutes: [{ match: "*", upstream: openai }]`, {}));
    expect(['retryBaseDelayMs', 'maxRetryDelayMs', 'circuitBreaker'].filter((key) => key in router)).toEqual([]);
  });

  it('reports unknown upstreams in object entries, unrouted reroutes, bad weights, strategies and keys', () => {
    expect(
      problemsOf(
        [
          upstreams.replace('apiKeys: [k1, k2]', 'apiKeys: []'),
          'routes:',
          '  - { match: smart, upstream: [{ name: anthropic, weight: -1 }, { name: gogle, model: x }], strategy: fastest, contextFallback: huge }',
          '  - { match: other, upstream: { name: nope }, contentPolicyFallback: smart }',
          'retry: { baseDelayMs: 0 }',
          'circuitBreaker: { failures: 0 }',
        ].join('\n'),
      ),
    ).toEqual([
      'config: upstreams.anthropic.apiKeys: name at least one key',
      'config: routes.0.upstream.0.weight: must be at least 0',
      'config: routes.0.strategy: expected ("weighted" | "round-robin" | "least-busy" | "lowest-latency")',
      'config: retry.baseDelayMs: must be at least 1',
      'config: circuitBreaker.failures: must be at least 1',
      'config: routes.0.upstream.1.name: names no upstream of upstreams',
      'config: routes.1.upstream.name: names no upstream of upstreams',
    ]);
  });

  it('names a reroute no route matches once the config is otherwise valid', () => {
    expect(problemsOf(`${upstreams}\nroutes: [{ match: smart, upstream: openai, contextFallback: huge, contentPolicyFallback: smart }]`)).toEqual([
      'config: routes.0.contextFallback: no route matches this model',
    ]);
  });
});

describe('the README routing example', () => {
  it('is a valid config that balances gpt-4.1* and reroutes long requests', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Routing for resilience'));
    const start = section.indexOf('```yaml\n') + 8;
    const yaml = section.slice(start, section.indexOf('\n```', start));
    const env = { ANTHROPIC_KEY_1: 'a1', ANTHROPIC_KEY_2: 'a2', OPENAI_API_KEY: 'o', AZURE_EU_KEY: 'e', AZURE_US_KEY: 'u' };
    const router = toRouterConfig(parseConfig(yaml, env));
    expect(router.upstreams.anthropic?.apiKeys).toEqual(['a1', 'a2']);
    expect(router.routes.map((rule) => [rule.match, rule.strategy, rule.contextFallback])).toEqual([
      ['smart', undefined, 'long'],
      ['gpt-4.1*', undefined, undefined],
      ['long', 'least-busy', undefined],
    ]);
    expect([router.retryBaseDelayMs, router.maxRetryDelayMs, router.circuitBreaker]).toEqual([500, 30000, { failures: 5, windowMs: 60000, cooldownMs: 30000 }]);
  });
});

describe('per-upstream models and fallbacks in metrics and the access line', () => {
  const routes = [{ match: 'smart', upstream: [{ name: 'a', model: 'claude-x' }, 'b', { name: 'c', model: 'gpt-y' }], model: 'route-model' }];

  it("the model label knows each upstream's model", () => {
    expect([...knownModels(routes)].sort()).toEqual(['claude-x', 'gpt-y', 'route-model', 'smart']);
  });

  it("the access line's fallbacks is the router's count (a balanced route tries in any order)", () => {
    const record: RequestRecord = {
      requestId: 'r',
      clientProtocol: 'openai-chat',
      clientModel: 'smart',
      upstream: 'a',
      fallbacks: 2,
      status: 200,
      stream: false,
      totalMs: 1,
      warnings: [],
    };
    expect(recordFields(record, routes).fallbacks).toBe(2);
    const { fallbacks: _, ...countTokens } = record;
    expect(recordFields({ ...countTokens, upstream: 'b' }, routes).fallbacks).toBe(1);
  });
});
