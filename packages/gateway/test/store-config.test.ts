import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/expand-env.js';
import { ledgerOf } from '../src/config/ledger-path.js';
import { parseConfig } from '../src/config/load.js';

const BASE = { upstreams: { g: { protocol: 'gemini', baseUrl: 'http://x' } }, routes: [{ match: '*', upstream: 'g' }] };

describe('the store config', () => {
  it('takes postgres:// and redis:// URLs from the environment, and puts the spool beside the config by default', () => {
    const config = parseConfig(
      JSON.stringify({ ...BASE, store: { postgres: '${DATABASE_URL}', redis: '${REDIS_URL}' } }),
      { DATABASE_URL: 'postgres://u:p@db:5432/gw', REDIS_URL: 'redis://cache:6379/2' },
      'c.yaml',
      { baseDir: '/srv/gw' },
    );
    expect(config.store).toEqual({ postgres: 'postgres://u:p@db:5432/gw', redis: 'redis://cache:6379/2', spool: '/srv/gw/gateway-ledger-spool.jsonl' });
    expect(parseConfig(JSON.stringify(BASE)).store).toBeUndefined();
  });

  it('names each wrong field at once', () => {
    expect(() =>
      parseConfig(JSON.stringify({ ...BASE, store: { postgres: 'mysql://db', redis: 'http://cache', spool: '', mongo: 'x' } }), {}, 'c.yaml'),
    ).toThrow(
      ConfigError.of('c.yaml', [
        'store.postgres: must be a postgres:// URL',
        'store.redis: must be a redis:// or rediss:// URL',
        'store.spool: must not be empty',
        'store.mongo: unknown field',
      ]),
    );
  });

  it('sends `usage` to the database the config names, reading nothing else of it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-config-'));
    const file = join(dir, 'c.yaml');
    writeFileSync(
      file,
      'upstreams: { g: { protocol: gemini, baseUrl: "http://x", apiKey: "${GEMINI_API_KEY}" } }\nroutes: [{ match: "*", upstream: g }]\nstore: { postgres: "${DATABASE_URL}" }\n',
    );
    expect(ledgerOf(file, { DATABASE_URL: 'postgres://db/gw' })).toEqual({ postgres: 'postgres://db/gw' });
    writeFileSync(file, 'upstreams: {}\nroutes: []\nledger: false\nstore: { postgres: "postgres://db/gw" }\n');
    expect(ledgerOf(file, {})).toBeUndefined();
    writeFileSync(file, 'upstreams: {}\nroutes: []\nledger: { path: u.db }\n');
    expect(ledgerOf(file, {})).toEqual({ path: join(dir, 'u.db') });
  });
});
