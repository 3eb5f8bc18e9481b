import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/expand-env.js';
import { unnamedKeyLabel } from '../src/config/client-keys.js';
import { ledgerPathOf } from '../src/config/ledger-path.js';
import { loadConfigFile, parseConfig, toRouterConfig } from '../src/config/load.js';

const ISSUE_EXAMPLE = `
listen: { host: 127.0.0.1, port: 8787 }
keys: [ "\${GATEWAY_KEY}" ]
upstreams:
  openai:    { protocol: openai-chat, baseUrl: https://api.openai.com/v1, apiKey: "\${OPENAI_API_KEY}" }
  anthropic: { protocol: claude, baseUrl: https://api.anthropic.com, apiKey: "\${ANTHROPIC_API_KEY}", headers: {} }
  google:    { protocol: gemini, baseUrl: https://generativelanguage.googleapis.com, apiKey: "\${GEMINI_API_KEY}" }
routes:
  - { match: "claude-*", upstream: openai, model: gpt-4.1 }
  - { match: "*", upstream: anthropic }
ledger: { path: ./gateway-usage.db }
policies: {}
`;
const ENV = { GATEWAY_KEY: 'gk', OPENAI_API_KEY: 'ok', ANTHROPIC_API_KEY: 'ak', GEMINI_API_KEY: 'gg' };

describe('parseConfig', () => {
  it('reads the issue example with ${VAR} expansion and maps it to the router config', () => {
    const config = parseConfig(ISSUE_EXAMPLE, ENV);
    expect(config).toEqual({
      listen: { host: '127.0.0.1', port: 8787 },
      keys: [{ name: unnamedKeyLabel('gk'), key: 'gk' }],
      upstreams: {
        openai: { protocol: 'openai-chat', baseUrl: 'https://api.openai.com/v1', apiKey: 'ok' },
        anthropic: { protocol: 'claude', baseUrl: 'https://api.anthropic.com', apiKey: 'ak', headers: {} },
        google: { protocol: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', apiKey: 'gg' },
      },
      routes: [
        { match: 'claude-*', upstream: 'openai', model: 'gpt-4.1' },
        { match: '*', upstream: 'anthropic' },
      ],
      ledger: { path: './gateway-usage.db' },
      virtualKeys: { path: './gateway-keys.db', cacheTtlMs: 5000 },
      policies: {},
      maxBodyBytes: 33554432,
      log: {},
      metrics: {},
    });
    // claude-* targets gpt-4.1, but asking for gpt-4.1 by name reaches anthropic: not listed.
    expect(toRouterConfig(config)).toEqual({ upstreams: config.upstreams, routes: config.routes, policies: {}, models: [] });
  });

  it('accepts JSON and fills defaults', () => {
    const config = parseConfig(
      '{"upstreams":{"a":{"protocol":"claude","baseUrl":"http://x"}},"routes":[{"match":"*","upstream":["a","a"]}],"ledger":false,"maxRetries":1}',
      {},
    );
    expect(config.keys).toEqual([]);
    expect(config.allowOpen).toBeUndefined();
    expect(config.ledger).toBe(false);
    expect(toRouterConfig(config).maxRetries).toBe(1);
  });

  it('passes the stream idle timeout (per upstream) and the request deadline to the router', () => {
    const config = parseConfig(
      'upstreams: { a: { protocol: claude, baseUrl: "http://x", timeoutMs: 30000, streamIdleTimeoutMs: 45000 } }\nroutes: [{ match: "*", upstream: a }]\nrequestDeadlineMs: 900000',
      {},
    );
    const router = toRouterConfig(config);
    expect(router.upstreams.a).toEqual({ protocol: 'claude', baseUrl: 'http://x', timeoutMs: 30000, streamIdleTimeoutMs: 45000 });
    expect(router.requestDeadlineMs).toBe(900000);
    expect(() =>
      parseConfig('upstreams: { a: { protocol: claude, baseUrl: "http://x", streamIdleTimeoutMs: 0 } }\nroutes: [{ match: "*", upstream: a }]', {}),
    ).toThrow(ConfigError.of('config', ['upstreams.a.streamIdleTimeoutMs: must be at least 1']));
  });

  it('passes strictTools (per upstream) to the router', () => {
    const config = parseConfig(
      'upstreams: { a: { protocol: openai-chat, baseUrl: "http://x", strictTools: true } }\nroutes: [{ match: "*", upstream: a }]',
      {},
    );
    expect(toRouterConfig(config).upstreams.a).toEqual({ protocol: 'openai-chat', baseUrl: 'http://x', strictTools: true });
    expect(() =>
      parseConfig('upstreams: { a: { protocol: openai-chat, baseUrl: "http://x", strictTools: 1 } }\nroutes: [{ match: "*", upstream: a }]', {}),
    ).toThrow(ConfigError.of('config', ['upstreams.a.strictTools: expected boolean']));
  });

  it('supports ${VAR:-default}', () => {
    const config = parseConfig('upstreams: { a: { protocol: gemini, baseUrl: "${BASE:-http://localhost:1}" } }\nroutes: [{ match: "*", upstream: a }]', {});
    expect(config.upstreams.a?.baseUrl).toBe('http://localhost:1');
  });

  it('maps model-family routes (after the explicit ones), media fetching and upstream token counts to the router', () => {
    const config = parseConfig(
      [
        'upstreams: { oa: { protocol: openai-chat, baseUrl: "http://x/v1" }, an: { protocol: claude, baseUrl: "http://y" } }',
        'routes: [{ match: "my-model", upstream: an }]',
        'modelFamilies: { openaiChat: oa, claude: an }',
        'fetchMedia: { allow: ["https://cdn.example.com/"], maxBytes: 1000 }',
        'countTokens: upstream',
      ].join('\n'),
      {},
    );
    const router = toRouterConfig(config);
    expect(router.routes).toEqual([
      { match: 'my-model', upstream: 'an' },
      { match: 'gpt*', upstream: 'oa' },
      { match: 'chatgpt*', upstream: 'oa' },
      { match: 'claude*', upstream: 'an' },
    ]);
    expect(router.fetchMedia).toEqual({ allow: ['https://cdn.example.com/'], maxBytes: 1000 });
    expect(router.countTokens).toBe('upstream');
  });

  const cases: [string, string, string][] = [
    [
      'an unknown model-family upstream',
      'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]\nmodelFamilies: { gemini: g }',
      'modelFamilies.gemini: names no upstream of upstreams',
    ],
    [
      'an empty media allowlist',
      'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]\nfetchMedia: { allow: [] }',
      'fetchMedia.allow: name at least one URL prefix or host',
    ],
    ['an unset variable', ISSUE_EXAMPLE, 'upstreams.google.apiKey: environment variable GEMINI_API_KEY is not set'],
    [
      'an unknown protocol',
      'upstreams: { a: { protocol: grpc, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]',
      'upstreams.a.protocol: expected ("openai-chat" | "openai-responses" | "claude" | "gemini" | "bedrock-converse")',
    ],
    [
      'a bad URL',
      'upstreams: { a: { protocol: claude, baseUrl: nope } }\nroutes: [{ match: "*", upstream: a }]',
      'upstreams.a.baseUrl: must be an absolute URL',
    ],
    [
      'an unknown route upstream',
      'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: b }]',
      'routes.0.upstream: names no upstream of upstreams',
    ],
    [
      'an unknown field',
      'upstreams: { a: { protocol: claude, baseUrl: "http://x", apikey: k } }\nroutes: [{ match: "*", upstream: a }]',
      'upstreams.a.apikey: unknown field (did you mean apiKey?)',
    ],
    ['no routes', 'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: []', 'routes: at least one route is required'],
    [
      'a bad port',
      'listen: { port: 70000 }\nupstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]',
      'listen.port: must be at most 65535',
    ],
    [
      "a drain past node's longest timer",
      'drainMs: 2147483648\nupstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]',
      "drainMs: must be at most 2147483647 (node's longest timer, about 24.8 days)",
    ],
    ['broken YAML', 'upstreams: [', 'Flow sequence in block collection must be sufficiently indented and end with a ] at line 1, column 13'],
  ];
  for (const [name, text, message] of cases) {
    it(`names the field for ${name}`, () => {
      const env = name === 'an unset variable' ? { ...ENV, GEMINI_API_KEY: undefined } : ENV;
      expect(() => parseConfig(text, env)).toThrow(ConfigError.of('config', [message]));
    });
  }

  it('names the field and its expected shape, never the value, whichever field holds a secret', () => {
    const secret = 'sk-live-0123456789abcdef';
    const valid = { upstreams: { a: { protocol: 'claude', baseUrl: 'http://x' } }, routes: [{ match: '*', upstream: 'a' }] };
    const upstream = (extra: Record<string, unknown>) => ({ ...valid, upstreams: { a: { ...valid.upstreams.a, ...extra } } });
    const configs: [Record<string, unknown>, string][] = [
      [{ ...valid, keys: secret }, 'keys: expected Array'],
      [{ ...valid, keys: [[secret]] }, 'keys.0: expected (string | Object)'],
      [upstream({ baseUrl: secret }), 'upstreams.a.baseUrl: must be an absolute URL'],
      [upstream({ protocol: secret }), 'upstreams.a.protocol: expected ("openai-chat" | "openai-responses" | "claude" | "gemini" | "bedrock-converse")'],
      [upstream({ apiKey: { value: secret } }), 'upstreams.a.apiKey: expected string'],
      [upstream({ timeoutMs: secret }), 'upstreams.a.timeoutMs: expected number'],
      [upstream({ auth: secret }), 'upstreams.a.auth: expected ("bearer" | "x-api-key" | "x-goog-api-key" | "query-key" | "none")'],
      [upstream({ headers: { authorization: [secret] } }), 'upstreams.a.headers.authorization: expected string'],
      [{ ...valid, routes: [{ match: '*', upstream: secret }] }, 'routes.0.upstream: names no upstream of upstreams'],
      [{ ...valid, modelFamilies: { claude: secret } }, 'modelFamilies.claude: names no upstream of upstreams'],
      [{ ...valid, ledger: secret }, 'ledger: expected (false | Object)'],
      [{ ...valid, maxBodyBytes: secret }, 'maxBodyBytes: expected number'],
      [{ ...valid, listen: { port: secret } }, 'listen.port: expected number'],
      [secret as unknown as Record<string, unknown>, '(root): expected Object'],
    ];
    for (const [config, message] of configs) {
      let error: unknown;
      try {
        parseConfig(JSON.stringify(config), {});
      } catch (caught) {
        error = caught;
      }
      expect(error).toEqual(ConfigError.of('config', [message]));
      expect(String(error)).not.toContain('sk-live');
    }
    // Nor through YAML's own errors.
    for (const text of [`keys: "${secret}`, `keys: [${secret}\nupstreams: {`]) {
      expect(() => parseConfig(text, {})).toThrow(ConfigError);
      try {
        parseConfig(text, {});
      } catch (error) {
        expect(String(error)).not.toContain('sk-live');
      }
    }
  });
});

describe('config problems', () => {
  const problemsOf = (text: string, env: Record<string, string | undefined> = {}) => {
    try {
      parseConfig(text, env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).message.split('\n');
    }
    throw new Error('the config was accepted');
  };

  it('names the tracing encodings an unknown one could have been', () => {
    const text = [
      'upstreams: { a: { protocol: claude, baseUrl: "http://127.0.0.1:1" } }',
      'routes: [{ match: "*", upstream: a }]',
      'tracing: { endpoint: "http://127.0.0.1:4318/v1/traces", protocol: grpc }',
    ].join('\n');
    expect(problemsOf(text)).toEqual(['config: tracing.protocol: expected ("http/protobuf" | "http/json")']);
  });

  it('reports every problem at once, one line each, in one path style, with the key a misspelt key meant', () => {
    const text = [
      'listen: { prot: 8787 }',
      'warningHeader: true',
      'upstreams:',
      '  openai: { protocol: openai-chat, baseUrl: nope, apiKey: "${OPENAI_API_KEY}", timeoutMS: 5 }',
      '  anthropic: { protocol: claude, baseUrl: "${ANTHROPIC_BASE}", apiKey: "${ANTHROPIC_API_KEY}" }',
      'routes:',
      '  - { match: "*", upstream: [openai, gogle], modle: x }',
      'modelFamilies: { gemini: google }',
      'ledger: { pth: ./u.db }',
      'policies: { loopgaurd: true }',
      'fetchMeda: { allow: [x] }',
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      'config: upstreams.openai.apiKey: environment variable OPENAI_API_KEY is not set',
      'config: upstreams.anthropic.baseUrl: environment variable ANTHROPIC_BASE is not set',
      'config: upstreams.anthropic.apiKey: environment variable ANTHROPIC_API_KEY is not set',
      'config: upstreams.openai.baseUrl: must be an absolute URL',
      'config: ledger.path: is required',
      'config: listen.prot: unknown field (did you mean port?)',
      'config: warningHeader: unknown field (did you mean warningsHeader?)',
      'config: upstreams.openai.timeoutMS: unknown field (did you mean timeoutMs?)',
      'config: routes.0.modle: unknown field (did you mean model?)',
      'config: ledger.pth: unknown field (did you mean path?)',
      'config: policies.loopgaurd: unknown field (did you mean loopGuard?)',
      'config: fetchMeda: unknown field (did you mean fetchMedia?)',
      'config: routes.0.upstream.1: names no upstream of upstreams',
      'config: modelFamilies.gemini: names no upstream of upstreams',
    ]);
  });

  it('suggests nothing for a key far from every known one', () => {
    expect(problemsOf('upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]\nbanana: 1')).toEqual([
      'config: banana: unknown field',
    ]);
  });

  it('names array elements with the same dots as object fields, unset variables included', () => {
    expect(
      problemsOf('keys: ["${K1}", "ok", "${K3}"]\nupstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]'),
    ).toEqual(['config: keys.0: environment variable K1 is not set', 'config: keys.2: environment variable K3 is not set']);
  });
});

describe('config paths', () => {
  it('resolves a relative ledger path (and the default one) against the config file, not the shell', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-'));
    const routes = 'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]\n';
    writeFileSync(join(dir, 'named.yaml'), `${routes}ledger: { path: data/usage.db }\n`);
    writeFileSync(join(dir, 'default.yaml'), routes);
    writeFileSync(join(dir, 'absolute.yaml'), `${routes}ledger: { path: /var/lib/usage.db }\n`);
    expect(loadConfigFile(join(dir, 'named.yaml'), {}).ledger).toEqual({ path: join(dir, 'data/usage.db') });
    expect(loadConfigFile(join(dir, 'default.yaml'), {}).ledger).toEqual({ path: join(dir, 'gateway-usage.db') });
    expect(loadConfigFile(join(dir, 'absolute.yaml'), {}).ledger).toEqual({ path: '/var/lib/usage.db' });
    // Config text without a file keeps the path as written.
    expect(parseConfig(routes, {}).ledger).toEqual({ path: './gateway-usage.db' });
  });

  it('finds the ledger without expanding any other field (usage needs no API key)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-'));
    const file = join(dir, 'c.yaml');
    writeFileSync(
      file,
      'upstreams: { a: { protocol: claude, baseUrl: "http://x", apiKey: "${ANTHROPIC_API_KEY}" } }\nroutes: [{ match: "*", upstream: a }]\nledger: { path: "${DATA:-data}/u.db" }\n',
    );
    expect(ledgerPathOf(file, {})).toBe(join(dir, 'data/u.db'));
    expect(ledgerPathOf(file, { DATA: '/srv' })).toBe('/srv/u.db');
    writeFileSync(file, 'ledger: false\n');
    expect(ledgerPathOf(file, {})).toBeUndefined();
    writeFileSync(file, 'ledger: { path: "${DB}", size: 1 }\n');
    expect(() => ledgerPathOf(file, {})).toThrow(ConfigError.of(file, ['ledger.path: environment variable DB is not set', 'ledger.size: unknown field']));
  });
});

describe('client keys', () => {
  const routes = 'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]\n';

  it('takes named keys and plain ones, a plain key labelled by its hash (stable when keys move), never by position', () => {
    const config = parseConfig(`${routes}keys: [{ name: ci, key: "\${CI_KEY}" }, plain-key]`, { CI_KEY: 'ci-secret' });
    expect(config.keys).toEqual([
      { name: 'ci', key: 'ci-secret' },
      { name: 'sha256:2b5cde0108a9', key: 'plain-key' },
    ]);
    expect(parseConfig(`${routes}keys: [other, plain-key]`, {}).keys[1]).toEqual({ name: 'sha256:2b5cde0108a9', key: 'plain-key' });
  });

  it('refuses keys that share a name or a key, and names a missing part', () => {
    expect(() => parseConfig(`${routes}keys: [{ name: ci, key: a }, { name: ci, key: b }, { name: cd, key: a }, { name: x }]`, {})).toThrow(
      ConfigError.of('config', ['keys.3.key: is required']),
    );
    expect(() => parseConfig(`${routes}keys: [{ name: ci, key: a }, { name: ci, key: b }, { name: cd, key: a }, { nme: y, key: c }]`, {})).toThrow(
      ConfigError.of('config', ['keys.3.name: is required', 'keys.3.nme: unknown field (did you mean name?)']),
    );
    expect(() => parseConfig(`${routes}keys: [{ name: ci, key: a }, { name: ci, key: b }, { name: cd, key: a }]`, {})).toThrow(
      ConfigError.of('config', ['keys.1.name: the same name as keys.0', 'keys.2.key: the same key as keys.0']),
    );
  });
});
