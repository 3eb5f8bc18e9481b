import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/expand-env.js';
import { parseConfig, toRouterConfig } from '../src/config/load.js';

/** Node's longest timer: a longer one fires at once (with a TimeoutOverflowWarning). */
const LONGEST = 2_147_483_647;
const TOO_LONG = "must be at most 2147483647 (node's longest timer, about 24.8 days)";

/** Every duration of the config, by its path, in the schema's order (the order of its errors). */
const DURATIONS = [
  'upstreams.a.timeoutMs',
  'upstreams.a.streamIdleTimeoutMs',
  'fetchMedia.timeoutMs',
  'mcp.timeBudgetMs',
  'mcp.callTimeoutMs',
  'retry.baseDelayMs',
  'retry.maxDelayMs',
  'circuitBreaker.windowMs',
  'circuitBreaker.cooldownMs',
  'requestDeadlineMs',
  'drainMs',
] as const;

/** A valid config with each path of `values` set to its number. */
function configWith(values: Record<string, number>): string {
  const config: Record<string, unknown> = {
    upstreams: { a: { protocol: 'claude', baseUrl: 'http://x' } },
    routes: [{ match: '*', upstream: 'a' }],
    fetchMedia: { allow: ['https://cdn.example.com/'] },
  };
  for (const [path, value] of Object.entries(values)) {
    const keys = path.split('.');
    let node = config;
    for (const key of keys.slice(0, -1)) {
      node[key] ??= {};
      node = node[key] as Record<string, unknown>;
    }
    node[keys.at(-1)!] = value;
  }
  return JSON.stringify(config);
}

describe('config durations', () => {
  for (const path of DURATIONS) {
    it(`refuses ${path} past node's longest timer, naming the field`, () => {
      expect(() => parseConfig(configWith({ [path]: LONGEST + 1 }), {})).toThrow(ConfigError.of('config', [`${path}: ${TOO_LONG}`]));
    });
  }

  it('reports every duration too long at once, one line each', () => {
    const all = Object.fromEntries(DURATIONS.map((path) => [path, 3_000_000_000]));
    let error: unknown;
    try {
      parseConfig(configWith(all), {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toEqual(
      ConfigError.of(
        'config',
        DURATIONS.map((path) => `${path}: ${TOO_LONG}`),
      ),
    );
  });

  it('takes every duration at the bound, and passes them to the router unchanged', () => {
    const config = parseConfig(configWith(Object.fromEntries(DURATIONS.map((path) => [path, LONGEST]))), {});
    expect(config.upstreams.a).toEqual({ protocol: 'claude', baseUrl: 'http://x', timeoutMs: LONGEST, streamIdleTimeoutMs: LONGEST });
    expect(config.retry).toEqual({ baseDelayMs: LONGEST, maxDelayMs: LONGEST });
    expect(config.circuitBreaker).toEqual({ windowMs: LONGEST, cooldownMs: LONGEST });
    expect(config.fetchMedia).toEqual({ allow: ['https://cdn.example.com/'], timeoutMs: LONGEST });
    expect(config.mcp).toEqual({ timeBudgetMs: LONGEST, callTimeoutMs: LONGEST });
    expect(config.requestDeadlineMs).toBe(LONGEST);
    expect(config.drainMs).toBe(LONGEST);
    const router = toRouterConfig(config, {});
    expect(router.upstreams.a).toEqual({ protocol: 'claude', baseUrl: 'http://x', timeoutMs: LONGEST, streamIdleTimeoutMs: LONGEST });
    expect([router.retryBaseDelayMs, router.maxRetryDelayMs, router.requestDeadlineMs, router.fetchMedia?.timeoutMs]).toEqual([
      LONGEST,
      LONGEST,
      LONGEST,
      LONGEST,
    ]);
    expect(router.circuitBreaker).toEqual({ windowMs: LONGEST, cooldownMs: LONGEST });
  });

  it('keeps the lower bounds: 1 for a timeout, 0 for the drain', () => {
    expect(() => parseConfig(configWith({ 'mcp.callTimeoutMs': 0 }), {})).toThrow(ConfigError.of('config', ['mcp.callTimeoutMs: must be at least 1']));
    expect(() => parseConfig(configWith({ requestDeadlineMs: 1.5 }), {})).toThrow(ConfigError.of('config', ['requestDeadlineMs: must be a whole number']));
    expect(parseConfig(configWith({ drainMs: 0 }), {}).drainMs).toBe(0);
  });
});
