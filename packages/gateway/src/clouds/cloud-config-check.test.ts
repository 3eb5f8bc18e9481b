import { describe, expect, it } from 'vitest';
import type { ConfigError } from '../config/expand-env.js';
import { parseConfig, toRouterConfig } from '../config/load.js';

const ROUTES = [{ match: '*', upstream: 'u' }];
const problemsOf = (upstream: Record<string, unknown>, env: Record<string, string> = {}) => {
  try {
    parseConfig(JSON.stringify({ upstreams: { u: upstream }, routes: ROUTES }), env);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
};

describe('cloud upstream config', () => {
  it('names what each flavor needs', () => {
    expect(problemsOf({ protocol: 'openai-chat', flavor: 'vertex' })).toEqual([
      'upstreams.u.protocol: flavor vertex serves gemini or claude',
      'upstreams.u.project: required with flavor vertex',
      'upstreams.u.location: required with flavor vertex (a region such as us-east5, or global)',
    ]);
    expect(problemsOf({ protocol: 'openai-chat', flavor: 'azure', tenantId: 't' })).toEqual([
      'upstreams.u.baseUrl: required with flavor azure (https://{resource}.openai.azure.com)',
      'upstreams.u.tenantId: Entra ID needs tenantId, clientId and clientSecret together',
    ]);
    expect(problemsOf({ protocol: 'claude', flavor: 'bedrock', accessKeyId: 'a' })).toEqual([
      'upstreams.u.region: required with flavor bedrock (or set AWS_REGION)',
      'upstreams.u.accessKeyId: accessKeyId and secretAccessKey go together',
    ]);
    expect(problemsOf({ protocol: 'claude', flavor: 'bedrock' }, { AWS_REGION: 'eu-west-1', HOME: '/nonexistent' })).toEqual([
      'upstreams.u.accessKeyId: required with flavor bedrock (or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, an AWS_PROFILE of ~/.aws/credentials, or awsCredentialChain: true)',
    ]);
    expect(problemsOf({ protocol: 'claude', flavor: 'bedrock' }, { AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 's' })).toEqual([]);
  });

  it('takes Converse upstreams with flavor bedrock only', () => {
    const aws = { AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 's' };
    expect(problemsOf({ protocol: 'bedrock-converse', flavor: 'bedrock' }, aws)).toEqual([]);
    expect(problemsOf({ protocol: 'bedrock-converse', baseUrl: 'https://bedrock-runtime.eu-west-1.amazonaws.com' }, aws)).toEqual([
      'upstreams.u.flavor: protocol bedrock-converse needs flavor bedrock',
    ]);
    expect(problemsOf({ protocol: 'bedrock-converse', flavor: 'vertex', project: 'p', location: 'global' }, aws)).toEqual([
      'upstreams.u.protocol: flavor vertex serves gemini or claude',
    ]);
    expect(problemsOf({ protocol: 'claude', flavor: 'bedrock', region: 'x' }, aws)).toEqual([]);
    expect(problemsOf({ protocol: 'gemini', flavor: 'bedrock' }, aws)).toEqual(['upstreams.u.protocol: flavor bedrock serves claude or bedrock-converse']);
  });

  it("refuses another cloud's fields, a missing baseUrl, and a key file it cannot read", () => {
    expect(problemsOf({ protocol: 'claude', region: 'us-east-1', project: 'p' })).toEqual([
      'upstreams.u.project: only with flavor vertex',
      'upstreams.u.region: only with flavor bedrock',
      'upstreams.u.baseUrl: required',
    ]);
    expect(problemsOf({ protocol: 'gemini', flavor: 'vertex', project: 'p', location: 'global', keyFile: '/nonexistent/key.json', apiKey: 'k' })).toEqual([
      'upstreams.u.apiKey: Vertex takes OAuth2 tokens: use keyFile or accessToken (neither: Application Default Credentials)',
      "upstreams.u.keyFile: cannot read the service-account key file /nonexistent/key.json: ENOENT: no such file or directory, open '/nonexistent/key.json'",
    ]);
  });

  it('gives the router a base URL of its own per cloud upstream, on the cloud endpoint, and no key', () => {
    const config = parseConfig(
      JSON.stringify({
        upstreams: {
          gem: { protocol: 'gemini', flavor: 'vertex', project: 'p', location: 'global', accessToken: 't' },
          eu: { protocol: 'claude', flavor: 'vertex', project: 'p', location: 'europe-west1', accessToken: 't', timeoutMs: 5000 },
          aws: { protocol: 'claude', flavor: 'bedrock', region: 'us-west-2', accessKeyId: 'a', secretAccessKey: 's' },
          az: { protocol: 'openai-chat', flavor: 'azure', baseUrl: 'https://r.openai.azure.com/', apiKey: 'k' },
          plain: { protocol: 'claude', baseUrl: 'https://api.anthropic.com', apiKey: 'k' },
        },
        routes: [{ match: '*', upstream: 'plain' }],
      }),
      {},
    );
    expect(toRouterConfig(config, {}).upstreams).toEqual({
      gem: { protocol: 'gemini', baseUrl: 'https://aiplatform.googleapis.com/llm-gateway-upstream/gem', auth: 'none' },
      eu: {
        protocol: 'claude',
        baseUrl: 'https://europe-west1-aiplatform.googleapis.com/llm-gateway-upstream/eu',
        auth: 'none',
        timeoutMs: 5000,
        hostsMcp: false,
      },
      aws: { protocol: 'claude', baseUrl: 'https://bedrock-runtime.us-west-2.amazonaws.com/llm-gateway-upstream/aws', auth: 'none', hostsMcp: false },
      az: { protocol: 'openai-chat', baseUrl: 'https://r.openai.azure.com/llm-gateway-upstream/az', auth: 'none' },
      plain: { protocol: 'claude', baseUrl: 'https://api.anthropic.com', apiKey: 'k' },
    });
  });
});
