import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/expand-env.js';
import { listedModels } from '../src/config/listed-models.js';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type Gateway, startGateway } from '../src/server/start.js';

/** Glob routes only: before, every model list was empty. */
const CONFIG = [
  'upstreams:',
  '  openai: { protocol: openai-chat, baseUrl: "http://127.0.0.1:1/v1" }',
  '  anthropic: { protocol: claude, baseUrl: "http://127.0.0.1:1" }',
  'routes:',
  '  - { match: "claude-*", upstream: anthropic, model: claude-sonnet-4-5 }',
  '  - { match: "*", upstream: [openai, anthropic], model: gpt-4.1 }',
  'models: [claude-opus-4-1, gpt-4.1]',
  'ledger: false',
].join('\n');

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway(parseConfig(CONFIG, {}), { port: 0, logger: createLogger('silent') });
});
afterAll(async () => {
  await gateway.close();
});

describe('model lists', () => {
  it('name the routes target models and the models: list, for OpenAI clients', async () => {
    const res = await fetch(`${gateway.url}/v1/models`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      object: 'list',
      data: [
        { id: 'claude-sonnet-4-5', object: 'model', created: 0, owned_by: 'llm-router' },
        { id: 'gpt-4.1', object: 'model', created: 0, owned_by: 'llm-router' },
        { id: 'claude-opus-4-1', object: 'model', created: 0, owned_by: 'llm-router' },
      ],
    });
  });

  it('in Anthropic shape for Anthropic clients', async () => {
    const res = await fetch(`${gateway.url}/v1/models`, { headers: { 'anthropic-version': '2023-06-01', 'x-api-key': 'any' } });
    expect(await res.json()).toEqual({
      data: [
        { type: 'model', id: 'claude-sonnet-4-5', display_name: 'claude-sonnet-4-5', created_at: '1970-01-01T00:00:00Z' },
        { type: 'model', id: 'gpt-4.1', display_name: 'gpt-4.1', created_at: '1970-01-01T00:00:00Z' },
        { type: 'model', id: 'claude-opus-4-1', display_name: 'claude-opus-4-1', created_at: '1970-01-01T00:00:00Z' },
      ],
      has_more: false,
      first_id: 'claude-sonnet-4-5',
      last_id: 'claude-opus-4-1',
    });
  });

  it('in Gemini shape for Gemini clients', async () => {
    const res = await fetch(`${gateway.url}/v1beta/models`);
    const methods = ['generateContent', 'streamGenerateContent', 'countTokens'];
    expect(await res.json()).toEqual({
      models: [
        { name: 'models/claude-sonnet-4-5', displayName: 'claude-sonnet-4-5', supportedGenerationMethods: methods },
        { name: 'models/gpt-4.1', displayName: 'gpt-4.1', supportedGenerationMethods: methods },
        { name: 'models/claude-opus-4-1', displayName: 'claude-opus-4-1', supportedGenerationMethods: methods },
      ],
    });
  });

  it('leave out a target model that, asked for by name, another rule would send elsewhere', () => {
    expect(
      listedModels([
        { match: 'claude-*', upstream: 'openai', model: 'gpt-4.1' },
        { match: 'fast', upstream: 'anthropic', model: 'haiku-4-5' },
        { match: 'slow', upstream: 'anthropic', model: 'claude-opus-4-1' },
        { match: '*', upstream: 'anthropic' },
      ]),
    ).toEqual(['fast', 'slow', 'haiku-4-5']);
  });

  it('refuse a models: entry no route matches', () => {
    const text = 'upstreams: { a: { protocol: claude, baseUrl: "http://x" } }\nroutes: [{ match: "claude-*", upstream: a }]\nmodels: [claude-x, gpt-4.1]';
    expect(() => parseConfig(text, {})).toThrow(ConfigError.of('config', ['models.1: no route matches this model']));
  });
});
