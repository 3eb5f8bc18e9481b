import { type ClientProtocol, SERVED_PROTOCOLS, type ServedProtocol } from '../src/served-protocols.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { MIDWAY_FAILURE_MESSAGE } from '../src/mock/midway-failure.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { sdkClient } from './helpers/clients.js';
import { createPassthroughHandler } from './helpers/passthrough-router.js';

/**
 * End to end: the real gateway with @llm/router's createRouter, mock upstreams of every
 * protocol, and the official SDKs as clients, over all 16 pairs; and the AWS SDK's Bedrock
 * runtime client (Converse, endpoint = the gateway, access key id = a gateway key) to each.
 */

const UPSTREAM_MODEL: Record<ServedProtocol, string> = {
  'openai-chat': 'gpt-4.1',
  'openai-responses': 'gpt-5',
  claude: 'claude-opus-5-5',
  gemini: 'gemini-2.5-flash',
};

/** The mock's mid-stream error as each upstream names it: OpenAI's `server_error`, Claude's overload, Gemini's UNAVAILABLE. */
const MIDWAY_EXCEPTION: Record<ServedProtocol, string> = {
  'openai-chat': 'InternalServerException',
  'openai-responses': 'InternalServerException',
  claude: 'ServiceUnavailableException',
  gemini: 'ServiceUnavailableException',
};

/** The clients: the four protocols' official SDKs and the AWS SDK (Converse; its thinking replay is not written yet). */
const CLIENTS: readonly ClientProtocol[] = [...SERVED_PROTOCOLS, 'bedrock-converse'];

let gateway: Gateway;
const mocks: MockUpstream[] = [];

describe('gateway end to end', () => {
  beforeAll(async () => {
    mocks.push(...(await Promise.all(SERVED_PROTOCOLS.map((protocol) => startMockUpstream({ protocol })))));
    const config = parseConfig(
      JSON.stringify({
        keys: ['e2e-key'],
        upstreams: Object.fromEntries(mocks.map((m) => [m.protocol, { protocol: m.protocol, baseUrl: m.baseUrl, apiKey: 'upstream-key' }])),
        routes: SERVED_PROTOCOLS.map((p) => ({ match: `to-${p}`, upstream: p, model: UPSTREAM_MODEL[p] })),
        ledger: false,
        maxRetries: 0,
      }),
    );
    gateway = await startGateway(config, { port: 0, logger: createLogger('silent') });
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all(mocks.map((m) => m.close()));
  });

  for (const client of CLIENTS) {
    for (const upstream of SERVED_PROTOCOLS) {
      for (const stream of [false, true]) {
        const mode = stream ? 'streaming' : 'non-streaming';
        it(`${client} client -> ${upstream} upstream, ${mode}: text`, async () => {
          const sdk = sdkClient(client, gateway.url, 'e2e-key');
          const turn = await sdk.ask(`to-${upstream}`, 'hello there', { stream, tools: false });
          expect(turn).toEqual({ text: `Mock ${upstream} says: hello there`, calls: [] });
        });
        it(`${client} client -> ${upstream} upstream, ${mode}: tool loop`, async () => {
          const sdk = sdkClient(client, gateway.url, 'e2e-key');
          const first = await sdk.ask(`to-${upstream}`, 'weather please', { stream, tools: true });
          expect(first.calls.map((c) => [c.name, c.args])).toEqual([['get_weather', { city: 'Paris' }]]);
          const second = await sdk.ask(`to-${upstream}`, 'weather please', { stream, tools: true, toolResult: { turn: first, output: 'sunny' } });
          expect(second.calls).toEqual([]);
          expect(second.text).toMatch(/^Tool said: .*sunny/);
        });
        it(`${client} client -> ${upstream} upstream, ${mode}: thinking with tools`, async () => {
          const sdk = sdkClient(client, gateway.url, 'e2e-key');
          const first = await sdk.ask(`to-${upstream}`, 'think about the weather', { stream, tools: true, thinking: true });
          expect(first.calls.map((c) => [c.name, c.args])).toEqual([['get_weather', { city: 'Paris' }]]);
          // Reasoning shows where both sides can carry it (Chat has no reasoning on the wire).
          expect(first.reasoned).toBe(client !== 'openai-chat' && upstream !== 'openai-chat');
          // The assistant turn is replayed verbatim; the mock upstream rejects replays missing or forging its reasoning state.
          const second = await sdk.ask(`to-${upstream}`, 'think about the weather', {
            stream,
            tools: true,
            thinking: true,
            toolResult: { turn: first, output: 'sunny' },
          });
          expect(second.calls).toEqual([]);
          expect(second.text).toMatch(/^Tool said: .*sunny/);
        });
      }
    }
    for (const upstream of SERVED_PROTOCOLS) {
      it(`${client} client of a ${upstream} upstream that fails mid-stream gets the error in its protocol`, async () => {
        const sdk = sdkClient(client, gateway.url, 'e2e-key');
        // The stream has started (status 200, some text) when the upstream sends its error event:
        // the SDK reads a well-formed error of its own protocol and fails with the upstream's message.
        await expect(sdk.ask(`to-${upstream}`, 'please fail midway', { stream: true, tools: false })).rejects.toThrow(MIDWAY_FAILURE_MESSAGE);
      });
      it(`${client} client sees a ${upstream} upstream's 429 as a 429, streaming and not`, async () => {
        const sdk = sdkClient(client, gateway.url, 'e2e-key');
        for (const stream of [false, true]) {
          await expect(sdk.ask(`to-${upstream}`, 'error 429', { stream, tools: false })).rejects.toMatchObject({ status: 429 });
        }
      });
    }
  }

  for (const upstream of SERVED_PROTOCOLS) {
    it(`Converse client sees ${upstream} throttling as a ThrottlingException, and its mid-stream failure as the stream's exception`, async () => {
      const sdk = sdkClient('bedrock-converse', gateway.url, 'e2e-key');
      for (const stream of [false, true]) {
        await expect(sdk.ask(`to-${upstream}`, 'error 429', { stream, tools: false })).rejects.toMatchObject({
          name: 'ThrottlingException',
          $metadata: { httpStatusCode: 429 },
        });
      }
      await expect(sdk.ask(`to-${upstream}`, 'please fail midway', { stream: true, tools: false })).rejects.toMatchObject({
        name: MIDWAY_EXCEPTION[upstream],
        message: MIDWAY_FAILURE_MESSAGE,
      });
    });
  }

  it('refuses a Converse access key id that is no gateway key, as UnrecognizedClientException (401)', async () => {
    await expect(
      sdkClient('bedrock-converse', gateway.url, 'wrong-key').ask('to-claude', 'hello there', { stream: false, tools: false }),
    ).rejects.toMatchObject({
      name: 'UnrecognizedClientException',
      message: 'invalid gateway key',
      $metadata: { httpStatusCode: 401 },
    });
  });

  it('takes the gateway key of a Converse client as a bearer token too (Bedrock API keys)', async () => {
    const response = await fetch(`${gateway.url}/model/to-claude/converse`, {
      method: 'POST',
      headers: { authorization: 'Bearer e2e-key', 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hello there' }] }] }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { output: unknown }).output).toEqual({
      message: { role: 'assistant', content: [{ text: 'Mock claude says: hello there' }] },
    });
  });
});

describe('SDK harness over a same-protocol passthrough (checks the clients and mocks without the router)', () => {
  let bare: Gateway;
  const own: MockUpstream[] = [];
  beforeAll(async () => {
    own.push(...(await Promise.all(SERVED_PROTOCOLS.map((protocol) => startMockUpstream({ protocol })))));
    const config = parseConfig(
      JSON.stringify({
        upstreams: Object.fromEntries(own.map((m) => [m.protocol, { protocol: m.protocol, baseUrl: m.baseUrl }])),
        routes: [{ match: '*', upstream: 'claude' }],
        ledger: false,
      }),
    );
    bare = await startGateway(config, { port: 0, logger: createLogger('silent'), createRouter: createPassthroughHandler });
  });
  afterAll(async () => {
    await bare.close();
    await Promise.all(own.map((m) => m.close()));
  });
  for (const protocol of SERVED_PROTOCOLS) {
    for (const stream of [false, true]) {
      it(`${protocol}, ${stream ? 'streaming' : 'non-streaming'}: tool loop`, async () => {
        const sdk = sdkClient(protocol, bare.url, 'any');
        const first = await sdk.ask(UPSTREAM_MODEL[protocol], 'weather please', { stream, tools: true });
        expect(first.calls.map((c) => [c.name, c.args])).toEqual([['get_weather', { city: 'Paris' }]]);
        const second = await sdk.ask(UPSTREAM_MODEL[protocol], 'weather please', { stream, tools: true, toolResult: { turn: first, output: 'sunny' } });
        expect(second).toEqual({ text: protocol === 'gemini' ? 'Tool said: {"result":"sunny"}' : 'Tool said: sunny', calls: [] });
      });
    }
  }
});
