import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Gateway } from '../src/server/start.js';
import { startCloudGateway } from './helpers/cloud-mocks/cloud-gateway.js';
import { AWS, type CloudMock, startCloudMock } from './helpers/cloud-mocks/cloud-mock.js';

/**
 * `awsCredentialChain: true`: the AWS SDK's own default chain signs Bedrock calls. Proven offline
 * with a profile whose `credential_process` prints temporary credentials (the mock accepts only
 * their signature, session token included), and refreshed as the SDK refreshes: in the background
 * once the credentials are within five minutes of their expiry (a call meanwhile still signs
 * with the old ones, still valid), not before.
 */

let mock: CloudMock | undefined;
let gateway: Gateway | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  await gateway?.close();
  await mock?.close();
  gateway = mock = undefined;
});

/** A profile `chain` whose credential_process prints the mock's temporary key, expiring in `expiresInMs`; each run is counted. */
function processProfile(expiresInMs: number): { runs: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'aws-chain-'));
  const counter = join(dir, 'runs');
  writeFileSync(counter, '');
  const script = join(dir, 'credentials.mjs');
  writeFileSync(
    script,
    `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(counter)}, 'x');
console.log(JSON.stringify({ Version: 1, AccessKeyId: ${JSON.stringify(AWS.tempKeyId)}, SecretAccessKey: ${JSON.stringify(AWS.tempSecret)},
  SessionToken: ${JSON.stringify(AWS.sessionToken)}, Expiration: new Date(Date.now() + ${expiresInMs}).toISOString() }));`,
  );
  const config = join(dir, 'config');
  writeFileSync(config, `[profile chain]\ncredential_process = ${process.execPath} ${script}\n`);
  vi.stubEnv('AWS_CONFIG_FILE', config);
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(dir, 'no-credentials-file'));
  vi.stubEnv('AWS_PROFILE', 'chain');
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_CONTAINER_CREDENTIALS_FULL_URI'])
    vi.stubEnv(name, undefined);
  return { runs: () => readFileSync(counter, 'utf8').length };
}

async function serveChain(): Promise<string> {
  mock = await startCloudMock();
  const upstream = { protocol: 'claude', flavor: 'bedrock', baseUrl: mock.url, region: AWS.region, awsCredentialChain: true };
  gateway = await startCloudGateway({ upstreams: { bedrock: upstream }, routes: [{ match: '*', upstream: 'bedrock', model: 'anthropic.claude-x' }] });
  return gateway.url;
}

const ask = async (url: string) => {
  const message = await new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 }).messages.create({
    model: 'm',
    max_tokens: 10,
    messages: [{ role: 'user', content: 'hello there' }],
  });
  return message.content[0]?.type === 'text' ? message.content[0].text : undefined;
};

describe('Bedrock with the AWS credential chain', () => {
  it('signs with the credentials a profile’s credential_process gives, and keeps them until near their expiry', async () => {
    const profile = processProfile(3_600_000);
    const url = await serveChain();
    expect(await ask(url)).toBe('Mock claude says: hello there');
    expect(await ask(url)).toBe('Mock claude says: hello there');
    expect(mock!.bedrockCalls).toHaveLength(2);
    expect(profile.runs()).toBe(1);
  });

  it('fetches them again, in the background, when they are within five minutes of expiring', async () => {
    const profile = processProfile(60_000);
    const url = await serveChain();
    expect(await ask(url)).toBe('Mock claude says: hello there');
    expect(profile.runs()).toBe(1);
    expect(await ask(url)).toBe('Mock claude says: hello there');
    await vi.waitFor(() => expect(profile.runs()).toBe(2), { timeout: 10_000, interval: 50 });
    expect(await ask(url)).toBe('Mock claude says: hello there');
  });

  it('is a config error beside a static key', () => {
    expect(() =>
      startCloudGateway({
        upstreams: {
          b: {
            protocol: 'claude',
            flavor: 'bedrock',
            baseUrl: 'http://127.0.0.1:9',
            region: 'us-east-1',
            accessKeyId: 'A',
            secretAccessKey: 'S',
            awsCredentialChain: true,
          },
        },
        routes: [{ match: '*', upstream: 'b' }],
      }),
    ).toThrow('upstreams.b.awsCredentialChain: name a static key (accessKeyId...) or the credential chain, not both');
  });
});
