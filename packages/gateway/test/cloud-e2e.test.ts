import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { MIDWAY_FAILURE_MESSAGE } from '../src/mock/midway-failure.js';
import { type ClientProtocol, SERVED_PROTOCOLS } from '../src/served-protocols.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { sdkClient } from './helpers/clients.js';
import { AWS, AZURE, type CloudMock, VERTEX, startCloudMock } from './helpers/cloud-mocks/cloud-mock.js';

/**
 * End to end through the cloud upstreams: the real gateway and router, the official SDKs of all
 * four client protocols, and a mock of each cloud that checks what the cloud checks (URL form,
 * body fields, bearer tokens from its mock token endpoints, SigV4 by an independent
 * implementation, event-stream framing split into 7-byte pieces).
 */

/** Each cloud upstream, the model its route sends, and the protocol mock that answers behind it. */
const CLOUDS = {
  'vertex-gemini': { model: 'gemini-2.5-flash', answers: 'gemini' },
  'vertex-claude': { model: 'claude-sonnet-4-5@20250929', answers: 'claude' },
  'azure-chat': { model: 'my-gpt-4o-deployment', answers: 'openai-chat' },
  'azure-responses': { model: 'my-gpt-5-deployment', answers: 'openai-responses' },
  bedrock: { model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', answers: 'claude' },
  'bedrock-converse': { model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', answers: 'claude' },
} as const;
type Cloud = keyof typeof CLOUDS;
const CLOUD_NAMES = Object.keys(CLOUDS) as Cloud[];

/** The clients: the four served protocols' SDKs and the AWS SDK's Converse (its thinking replay is not written yet). */
const CLIENTS: readonly ClientProtocol[] = [...SERVED_PROTOCOLS, 'bedrock-converse'];

let mock: CloudMock;
let gateway: Gateway;

function cloudConfig(url: string, keyFile: string) {
  return {
    keys: ['e2e-key'],
    upstreams: {
      'vertex-gemini': { protocol: 'gemini', flavor: 'vertex', baseUrl: url, project: VERTEX.project, location: VERTEX.location, keyFile },
      'vertex-claude': { protocol: 'claude', flavor: 'vertex', baseUrl: url, project: VERTEX.project, location: VERTEX.location, keyFile },
      'azure-chat': { protocol: 'openai-chat', flavor: 'azure', baseUrl: url, apiVersion: AZURE.apiVersion, apiKey: AZURE.apiKey },
      'azure-responses': {
        protocol: 'openai-responses',
        flavor: 'azure',
        baseUrl: url,
        tenantId: AZURE.tenantId,
        clientId: AZURE.clientId,
        clientSecret: AZURE.clientSecret,
        authorityHost: url,
      },
      bedrock: {
        protocol: 'claude',
        flavor: 'bedrock',
        baseUrl: url,
        region: AWS.region,
        accessKeyId: AWS.tempKeyId,
        secretAccessKey: AWS.tempSecret,
        sessionToken: AWS.sessionToken,
      },
      'bedrock-converse': {
        protocol: 'bedrock-converse',
        flavor: 'bedrock',
        baseUrl: url,
        region: AWS.region,
        accessKeyId: AWS.accessKeyId,
        secretAccessKey: AWS.secretAccessKey,
      },
    },
    routes: CLOUD_NAMES.map((cloud) => ({ match: `to-${cloud}`, upstream: cloud, model: CLOUDS[cloud].model })),
    ledger: false,
    maxRetries: 0,
  };
}

describe('cloud upstreams end to end', () => {
  beforeAll(async () => {
    mock = await startCloudMock();
    gateway = await startGateway(parseConfig(JSON.stringify(cloudConfig(mock.url, mock.keyFile))), { port: 0, logger: createLogger('silent') });
  });
  afterAll(async () => {
    await gateway?.close();
    await mock?.close();
  });

  for (const client of CLIENTS) {
    for (const cloud of CLOUD_NAMES) {
      for (const stream of [false, true]) {
        const mode = stream ? 'streaming' : 'non-streaming';
        it(`${client} client -> ${cloud}, ${mode}: text`, async () => {
          const turn = await sdkClient(client, gateway.url, 'e2e-key').ask(`to-${cloud}`, 'hello there', { stream, tools: false });
          expect(turn).toEqual({ text: `Mock ${CLOUDS[cloud].answers} says: hello there`, calls: [] });
        });
        it(`${client} client -> ${cloud}, ${mode}: tool loop`, async () => {
          const sdk = sdkClient(client, gateway.url, 'e2e-key');
          const first = await sdk.ask(`to-${cloud}`, 'weather please', { stream, tools: true });
          expect(first.calls.map((c) => [c.name, c.args])).toEqual([['get_weather', { city: 'Paris' }]]);
          const second = await sdk.ask(`to-${cloud}`, 'weather please', { stream, tools: true, toolResult: { turn: first, output: 'sunny' } });
          expect(second.calls).toEqual([]);
          expect(second.text).toMatch(/^Tool said: .*sunny/);
        });
        it(`${client} client -> ${cloud}, ${mode}: thinking with tools`, async () => {
          const sdk = sdkClient(client, gateway.url, 'e2e-key');
          const first = await sdk.ask(`to-${cloud}`, 'think about the weather', { stream, tools: true, thinking: true });
          expect(first.calls.map((c) => [c.name, c.args])).toEqual([['get_weather', { city: 'Paris' }]]);
          expect(first.reasoned).toBe(client !== 'openai-chat' && CLOUDS[cloud].answers !== 'openai-chat');
          const second = await sdk.ask(`to-${cloud}`, 'think about the weather', {
            stream,
            tools: true,
            thinking: true,
            toolResult: { turn: first, output: 'sunny' },
          });
          expect(second.calls).toEqual([]);
          expect(second.text).toMatch(/^Tool said: .*sunny/);
        });
      }
      it(`${client} client sees ${cloud} throttling as a 429, streaming and not`, async () => {
        const sdk = sdkClient(client, gateway.url, 'e2e-key');
        for (const stream of [false, true]) {
          await expect(sdk.ask(`to-${cloud}`, 'error 429', { stream, tools: false })).rejects.toMatchObject({ status: 429 });
        }
      });
      it(`${client} client of ${cloud} failing mid-stream gets the error in its protocol`, async () => {
        await expect(sdkClient(client, gateway.url, 'e2e-key').ask(`to-${cloud}`, 'please fail midway', { stream: true, tools: false })).rejects.toThrow(
          MIDWAY_FAILURE_MESSAGE,
        );
      });
    }
  }

  it('called each cloud in its own URL form', async () => {
    const before = { vertex: mock.vertexCalls.length, azure: mock.azureCalls.length, bedrock: mock.bedrockCalls.length, converse: mock.converseCalls.length };
    for (const stream of [false, true])
      for (const cloud of CLOUD_NAMES) await sdkClient('claude', gateway.url, 'e2e-key').ask(`to-${cloud}`, 'hello there', { stream, tools: false });
    const vertex = mock.vertexCalls.slice(before.vertex).map((call) => call.path + call.search);
    expect(vertex).toEqual([
      '/v1/projects/my-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent',
      '/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict',
      '/v1/projects/my-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      '/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
    ]);
    expect(mock.azureCalls.slice(before.azure)).toEqual([
      { path: '/openai/deployments/my-gpt-4o-deployment/chat/completions', search: '?api-version=2024-10-21', auth: 'api-key' },
      { path: '/openai/v1/responses', search: '', auth: 'bearer' },
      { path: '/openai/deployments/my-gpt-4o-deployment/chat/completions', search: '?api-version=2024-10-21', auth: 'api-key' },
      { path: '/openai/v1/responses', search: '', auth: 'bearer' },
    ]);
    const bedrock = mock.bedrockCalls.slice(before.bedrock);
    expect(bedrock.map((call) => call.path)).toEqual([
      '/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke',
      '/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream',
    ]);
    expect(bedrock.map((call) => [call.securityToken, call.body.anthropic_version, 'model' in call.body, 'stream' in call.body])).toEqual([
      [AWS.sessionToken, 'bedrock-2023-05-31', false, false],
      [AWS.sessionToken, 'bedrock-2023-05-31', false, false],
    ]);
    const converse = mock.converseCalls.slice(before.converse);
    expect(converse.map((call) => [call.path, Object.keys(call.body).sort()])).toEqual([
      ['/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse', ['inferenceConfig', 'messages']],
      ['/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream', ['inferenceConfig', 'messages']],
    ]);
    expect(converse[0]?.body.messages).toEqual([{ role: 'user', content: [{ text: 'hello there' }] }]);
    // One token per upstream for the whole run (both Vertex upstreams sign in): cached, not fetched per request.
    expect([mock.google.issued, mock.entra.issued]).toEqual([2, 1]);
  });
});
