import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { limiterStoreOf } from '../../src/limits/index.js';

const configOf = (extra: object) =>
  parseConfig(
    JSON.stringify({ upstreams: { a: { protocol: 'claude', baseUrl: 'http://127.0.0.1:9' } }, routes: [{ match: '*', upstream: 'a' }], ...extra }),
    {},
    'gateway.yaml',
    {
      baseDir: '/srv/gw',
    },
  );

describe('the limits store a config names', () => {
  it('is Redis when store.redis is set, else a file beside the ledger, else memory', () => {
    expect(limiterStoreOf(configOf({ store: { redis: 'redis://r:6379' } }))).toEqual({ redis: 'redis://r:6379', onStoreDown: 'open' });
    expect(limiterStoreOf(configOf({}))).toEqual({ sqlitePath: '/srv/gw/gateway-usage.limits.db', onStoreDown: 'open' });
    expect(limiterStoreOf(configOf({ ledger: { path: 'data/usage.sqlite' }, limits: { onStoreDown: 'closed' } }))).toEqual({
      sqlitePath: '/srv/gw/data/usage.limits.db',
      onStoreDown: 'closed',
    });
    expect(limiterStoreOf(configOf({ ledger: false }))).toEqual({ onStoreDown: 'open' });
    expect(limiterStoreOf(configOf({ ledger: { path: ':memory:' } }))).toEqual({ onStoreDown: 'open' });
  });

  it('refuses an onStoreDown other than open or closed, naming the field', () => {
    expect(() => configOf({ limits: { onStoreDown: 'maybe' } })).toThrow('gateway.yaml: limits.onStoreDown:');
  });
});
