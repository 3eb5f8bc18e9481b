import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Gateway } from '../src/server/start.js';
import { startCloudGateway } from './helpers/cloud-mocks/cloud-gateway.js';
import { AWS, AZURE, type CloudMock, VERTEX, startCloudMock } from './helpers/cloud-mocks/cloud-mock.js';

/** Sign-in paths of the cloud upstreams: token refresh, static tokens, AWS variables, refusals. */

let mock: CloudMock | undefined;
let gateway: Gateway | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  await gateway?.close();
  await mock?.close();
  gateway = mock = undefined;
});

async function serve(upstream: Record<string, unknown>, model: string, extra: Record<string, unknown> = {}): Promise<Gateway> {
  gateway = await startCloudGateway({ upstreams: { cloud: upstream }, routes: [{ match: '*', upstream: 'cloud', model }], ...extra });
  return gateway;
}

const claude = (url: string) => new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
const ask = async (url: string, content = 'hello there') => {
  const message = await claude(url).messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content }] });
  return message.content[0]?.type === 'text' ? message.content[0].text : undefined;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cloud sign-in', () => {
  it('refreshes a Vertex service-account token before it expires, and uses it until then', async () => {
    // Tokens live 2 s: the gateway replaces them at half their life; the mock refuses expired ones.
    mock = await startCloudMock(2);
    const { url } = await serve(
      { protocol: 'claude', flavor: 'vertex', baseUrl: mock.url, project: VERTEX.project, location: VERTEX.location, keyFile: mock.keyFile },
      'claude-x',
    );
    expect(await ask(url)).toBe('Mock claude says: hello there');
    expect(await ask(url)).toBe('Mock claude says: hello there');
    expect(mock.google.issued).toBe(1);
    await sleep(1_100);
    expect(await ask(url)).toBe('Mock claude says: hello there');
    expect(mock.google.issued).toBe(2);
  });

  it('refreshes an Entra ID token the same way', async () => {
    mock = await startCloudMock(2);
    const upstream = {
      protocol: 'openai-chat',
      flavor: 'azure',
      baseUrl: mock.url,
      tenantId: AZURE.tenantId,
      clientId: AZURE.clientId,
      clientSecret: AZURE.clientSecret,
      authorityHost: mock.url,
    };
    const { url } = await serve(upstream, 'my-deployment');
    expect(await ask(url)).toBe('Mock openai-chat says: hello there');
    expect(mock.entra.issued).toBe(1);
    await sleep(1_100);
    expect(await ask(url)).toBe('Mock openai-chat says: hello there');
    expect(mock.entra.issued).toBe(2);
    expect(mock.azureCalls.map((call) => [call.path, call.auth])).toEqual([
      ['/openai/v1/chat/completions', 'bearer'],
      ['/openai/v1/chat/completions', 'bearer'],
    ]);
  });

  it('sends a static Vertex access token as it is', async () => {
    mock = await startCloudMock();
    const { url } = await serve(
      { protocol: 'gemini', flavor: 'vertex', baseUrl: mock.url, project: VERTEX.project, location: VERTEX.location, accessToken: VERTEX.staticToken },
      'gemini-2.5-pro',
    );
    expect(await ask(url)).toBe('Mock gemini says: hello there');
    expect(mock.google.issued).toBe(0);
  });

  it('counts Claude tokens on Vertex at count-tokens:rawPredict', async () => {
    mock = await startCloudMock();
    const upstream = {
      protocol: 'claude',
      flavor: 'vertex',
      baseUrl: mock.url,
      project: VERTEX.project,
      location: VERTEX.location,
      accessToken: VERTEX.staticToken,
    };
    const { url } = await serve(upstream, 'claude-x', { countTokens: 'upstream' });
    const counted = await claude(url).messages.countTokens({ model: 'm', messages: [{ role: 'user', content: 'hello there' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(mock.vertexCalls.map((call) => [call.path, call.body.model])).toEqual([
      ['/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict', 'claude-x'],
    ]);
  });

  it('signs Bedrock calls with the AWS_* variables when the config names no key', async () => {
    mock = await startCloudMock();
    vi.stubEnv('AWS_ACCESS_KEY_ID', AWS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', AWS.secretAccessKey);
    vi.stubEnv('AWS_SESSION_TOKEN', '');
    vi.stubEnv('AWS_REGION', AWS.region);
    const { url } = await serve({ protocol: 'claude', flavor: 'bedrock', baseUrl: mock.url }, 'anthropic.claude-x-v1:0');
    expect(await ask(url)).toBe('Mock claude says: hello there');
    expect(mock.bedrockCalls.map((call) => [call.path, call.securityToken])).toEqual([['/model/anthropic.claude-x-v1%3A0/invoke', null]]);
  });

  it("answers a refused AWS signature as the upstream's 403, without AWS's message", async () => {
    mock = await startCloudMock();
    const { url } = await serve(
      { protocol: 'claude', flavor: 'bedrock', baseUrl: mock.url, region: AWS.region, accessKeyId: AWS.accessKeyId, secretAccessKey: 'wrong' },
      'anthropic.claude-x-v1:0',
    );
    await expect(ask(url)).rejects.toMatchObject({
      status: 403,
      error: { type: 'error', error: { type: 'authentication_error', message: "Bedrock refused the gateway's AWS credentials (InvalidSignatureException)" } },
    });
  });

  it("answers a refused AWS signature on Converse as an authentication error (the Claude client's 401), without AWS's message", async () => {
    mock = await startCloudMock();
    const { url } = await serve(
      { protocol: 'bedrock-converse', flavor: 'bedrock', baseUrl: mock.url, region: AWS.region, accessKeyId: AWS.accessKeyId, secretAccessKey: 'wrong' },
      'anthropic.claude-x-v1:0',
    );
    await expect(ask(url)).rejects.toMatchObject({
      status: 401,
      error: { type: 'error', error: { type: 'authentication_error', message: "Bedrock refused the gateway's AWS credentials (InvalidSignatureException)" } },
    });
    expect(mock.converseCalls).toEqual([]);
  });

  it('answers a refused token request as an unreachable upstream (502), the detail kept for the log', async () => {
    mock = await startCloudMock();
    const upstream = {
      protocol: 'openai-chat',
      flavor: 'azure',
      baseUrl: mock.url,
      tenantId: AZURE.tenantId,
      clientId: AZURE.clientId,
      clientSecret: 'wrong',
      authorityHost: mock.url,
    };
    const { url } = await serve(upstream, 'my-deployment');
    await expect(ask(url)).rejects.toMatchObject({ status: 502, error: { type: 'error', error: { type: 'api_error' } } });
    expect(mock.azureCalls).toEqual([]);
  });
});
