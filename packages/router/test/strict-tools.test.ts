// `strictTools`: the upstream option and the automatic rule reach the upstream encoder's context.
import { claude } from '@llm/claude';
import type { Codec, CodecContext, ProtocolId } from '@llm/core';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { describe, expect, it } from 'vitest';
import { bridge } from '../src/bridge.js';
import type { UpstreamConfig } from '../src/config.js';
import { createRouter } from '../src/handler.js';
import { defaultCodecs } from '../src/registry.js';

/** `codec` with a request encoder that records the context each call gets. */
function spyOn(codec: Codec): { codec: Codec; contexts: Array<CodecContext | undefined> } {
  const contexts: Array<CodecContext | undefined> = [];
  const encode = codec.request.encode;
  return {
    contexts,
    codec: {
      ...codec,
      request: {
        decode: codec.request.decode,
        encode: (value, context) => {
          contexts.push(context);
          return encode(value, context);
        },
      },
    },
  };
}

const weather = { name: 'weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const claudeBody = (strict?: boolean) => ({
  model: 'm',
  max_tokens: 50,
  messages: [{ role: 'user', content: 'Weather in Paris?' }],
  tools: [strict === undefined ? weather : { ...weather, strict }],
});

async function strictToolsSent(
  protocol: ProtocolId,
  body: unknown,
  upstream: Partial<UpstreamConfig> = {},
  path = '/v1/messages',
): Promise<boolean | undefined> {
  const spy = spyOn(defaultCodecs()[protocol] as Codec);
  const route = createRouter({
    codecs: { ...defaultCodecs(), [protocol]: spy.codec },
    upstreams: { main: { protocol, baseUrl: 'https://upstream.test/v1', apiKey: 'k', ...upstream } },
    routes: [{ match: '*', upstream: 'main' }],
    maxRetries: 0,
    // The answer does not matter here: the request was encoded before it was sent.
    transport: async () => new Response('{}', { status: 400, headers: { 'content-type': 'application/json' } }),
  });
  await route({
    method: 'POST',
    url: `http://router.test${path}`,
    headers: new Headers({ 'anthropic-version': '2023-06-01' }),
    text: async () => JSON.stringify(body),
  });
  expect(spy.contexts).toHaveLength(1);
  return spy.contexts[0]?.strictTools;
}

describe('strictTools in the upstream encode context', () => {
  it('the upstream option sets it, whatever the tools', async () => {
    expect(await strictToolsSent('openai-chat', claudeBody(), { strictTools: true })).toBe(true);
    expect(await strictToolsSent('gemini', claudeBody(), { strictTools: true })).toBe(true);
  });

  it('a client strict: true function tool sets it for an upstream whose codec enforces strict schemas', async () => {
    expect(openaiChat.traits.strictSchemas).toBe(true);
    expect(await strictToolsSent('openai-chat', claudeBody(true))).toBe(true);
    expect(await strictToolsSent('openai-responses', claudeBody(true))).toBe(true);
  });

  it('is not set without the option for non-strict tools, nor for upstreams without strict schemas', async () => {
    expect(await strictToolsSent('openai-chat', claudeBody())).toBeUndefined();
    expect(await strictToolsSent('openai-chat', claudeBody(false))).toBeUndefined();
    expect(gemini.traits.strictSchemas).toBe(false);
    expect(await strictToolsSent('gemini', claudeBody(true))).toBeUndefined();
  });

  it('the option turns off the same-protocol pass-through, so the schemas are encoded strict', () => {
    const spy = spyOn(claude as Codec);
    const body = claudeBody();
    const passed = bridge({ client: claude as Codec, upstream: spy.codec }).request(body);
    expect(passed.body).toBe(body);
    expect(spy.contexts).toEqual([]);
    bridge({ client: claude as Codec, upstream: spy.codec, strictTools: true }).request(structuredClone(body));
    expect(spy.contexts.map((context) => context?.strictTools)).toEqual([true]);
  });
});
