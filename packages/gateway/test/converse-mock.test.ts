import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sigV4Signer } from '../src/clouds/sigv4-signer.js';
import { AWS, type CloudMock, startCloudMock } from './helpers/cloud-mocks/cloud-mock.js';

/** The Converse cloud mock refuses what Bedrock refuses, so the end-to-end tests prove the gateway's calls well-formed. */

let mock: CloudMock;
const sign = sigV4Signer('bedrock', AWS.region, { accessKeyId: AWS.accessKeyId, secretAccessKey: AWS.secretAccessKey });

async function call(path: string, body: unknown, accept = 'application/json'): Promise<{ status: number; name: string | null; message: string }> {
  const text = JSON.stringify(body);
  const url = `${mock.url}${path}`;
  const headers = await sign({ url, method: 'POST', headers: { 'content-type': 'application/json', accept }, body: new TextEncoder().encode(text) });
  const response = await fetch(url, { method: 'POST', headers, body: text });
  return { status: response.status, name: response.headers.get('x-amzn-errortype'), message: ((await response.json()) as { message: string }).message };
}

const MESSAGES = [{ role: 'user', content: [{ text: 'hello there' }] }];

describe('Converse cloud mock', () => {
  beforeAll(async () => {
    mock = await startCloudMock();
  });
  afterAll(() => mock.close());

  it('answers a well-formed signed call', async () => {
    expect(await call('/model/m/converse', { messages: MESSAGES })).toMatchObject({ status: 200, name: null });
  });

  it('refuses a body member ConverseRequest lacks, a content block of two members, and a bad signature', async () => {
    expect(await call('/model/m/converse', { modelId: 'm', messages: MESSAGES })).toEqual({
      status: 400,
      name: 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/',
      message: 'Malformed input request: extraneous key [modelId] is not permitted',
    });
    expect(await call('/model/m/converse', { messages: [{ role: 'user', content: [{ text: 'a', image: {} }] }] })).toMatchObject({
      status: 400,
      message: 'Malformed input request: content block with members text, image: exactly one is allowed',
    });
    const response = await fetch(`${mock.url}/model/m/converse`, {
      method: 'POST',
      headers: { authorization: 'AWS4-HMAC-SHA256 Credential=AKIDMOCK/x' },
      body: '{}',
    });
    expect([response.status, response.headers.get('x-amzn-errortype')?.split(':')[0]]).toEqual([403, 'InvalidSignatureException']);
  });
});
