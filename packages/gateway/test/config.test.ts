import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/expand-env.js';
import { parseConfig, toRouterConfig } from '../src/config/load.js';

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
      keys: ['gk'],
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
      policies: {},
      maxBodyBytes: 33554432,
      log: {},
      metrics: {},
    });
    expect(toRouterConfig(config)).toEqual({ upstreams: config.upstreams, routes: config.routes, policies: {} });
  });

  it('accepts JSON and fills defaults', () => {
    const config = parseConfig('{"upstreams":{"a":{"protocol":"claude","baseUrl":"http://x"}},"routes":[{"match":"*","upstream":["a","a"]}],"ledger":false,"maxRetries":1}', {});
    expect(config.keys).toEqual([]);
    expect(config.ledger).toBe(false);
    expect(toRouterConfig(config).maxRetries).toBe(1);
  });

  it('passes the stream idle timeout (per upstream) and the request deadline to the router', () => {
    const config = parseConfig('upstreams: { a: { protocol: claude, baseUrl: "http://x", timeoutMs: 30000, streamIdleTimeoutMs: 45000 } }\nroutes: [{ match: "*", upstream: a }]\nrequestDeadlineMs: 900000', {});
    const router = toRouterConfig(config);
    expect(router.upstreams.a).toEqual({ protocol: 'claude', baseUrl: 'http://x', timeoutMs: 30000, streamIdleTimeoutMs: 45000 });
    expect(router.requestDeadlineMs).toBe(900000);
    expect(() => parseConfig('upstreams: { a: { protocol: claude, baseUrl: "http://x", streamIdleTimeoutMs: 0 } }\nroutes: [{ match: "*", upstream: a }]', {})).toThrow(
      new ConfigError('config: upstreams.a.streamIdleTimeoutMs: must be at least 1'),
    );
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
    ['an unknown model-family upstream', 'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]\nmodelFamilies: { gemini: g }', 'config: modelFamilies.gemini: names no upstream of upstreams'],
    ['an empty media allowlist', 'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]\nfetchMedia: { allow: [] }', 'config: fetchMedia.allow: name at least one URL prefix or host'],
    ['an unset variable', ISSUE_EXAMPLE, 'config: upstreams.google.apiKey: environment variable GEMINI_API_KEY is not set'],
    ['an unknown protocol', 'upstreams: { a: { protocol: grpc, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]', 'config: upstreams.a.protocol: expected ("openai-chat" | "openai-responses" | "claude" | "gemini")'],
    ['a bad URL', 'upstreams: { a: { protocol: claude, baseUrl: nope } }\nroutes: [{ match: "*", upstream: a }]', 'config: upstreams.a.baseUrl: must be an absolute URL'],
    ['an unknown route upstream', 'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: b }]', 'config: routes.0.upstream: names no upstream of upstreams'],
    ['an unknown field', 'upstreams: { a: { protocol: claude, baseUrl: "http://x", apikey: k } }\nroutes: [{ match: "*", upstream: a }]', 'config: upstreams.a.apikey: unknown field'],
    ['no routes', 'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: []', 'config: routes: at least one route is required'],
    ['a bad port', 'listen: { port: 70000 }\nupstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "*", upstream: a }]', 'config: listen.port: must be at most 65535'],
    ['broken YAML', 'upstreams: [', 'config: Flow sequence in block collection must be sufficiently indented and end with a ] at line 1, column 13'],
  ];
  for (const [name, text, message] of cases) {
    it(`names the field for ${name}`, () => {
      const env = name === 'an unset variable' ? { ...ENV, GEMINI_API_KEY: undefined } : ENV;
      expect(() => parseConfig(text, env)).toThrow(new ConfigError(message));
    });
  }

  it('names the field and its expected shape, never the value, whichever field holds a secret', () => {
    const secret = 'sk-live-0123456789abcdef';
    const valid = { upstreams: { a: { protocol: 'claude', baseUrl: 'http://x' } }, routes: [{ match: '*', upstream: 'a' }] };
    const upstream = (extra: Record<string, unknown>) => ({ ...valid, upstreams: { a: { ...valid.upstreams.a, ...extra } } });
    const configs: [Record<string, unknown>, string][] = [
      [{ ...valid, keys: secret }, 'keys: expected Array'],
      [{ ...valid, keys: [[secret]] }, 'keys.0: expected string'],
      [upstream({ baseUrl: secret }), 'upstreams.a.baseUrl: must be an absolute URL'],
      [upstream({ protocol: secret }), 'upstreams.a.protocol: expected ("openai-chat" | "openai-responses" | "claude" | "gemini")'],
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
      expect(error).toEqual(new ConfigError(`config: ${message}`));
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
