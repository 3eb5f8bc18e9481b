import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applicationDefaultToken } from './google-adc.js';

let server: Server | undefined;
afterEach(() => {
  vi.unstubAllEnvs();
  server?.close();
});

describe('applicationDefaultToken', () => {
  it("takes the metadata server's token (GCE_METADATA_HOST) with the cloud-platform scope, and reuses it", async () => {
    const seen: string[] = [];
    server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url} ${request.headers['metadata-flavor']}`);
      response.setHeader('metadata-flavor', 'Google');
      if (request.url?.startsWith('/computeMetadata/v1/instance/service-accounts/default/token')) {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ access_token: 'metadata-token', expires_in: 3600, token_type: 'Bearer' }));
      } else response.end('');
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server?.once('listening', resolve));
    vi.stubEnv('GCE_METADATA_HOST', `127.0.0.1:${(server.address() as AddressInfo).port}`);
    vi.stubEnv('GOOGLE_APPLICATION_CREDENTIALS', '');
    vi.stubEnv('HOME', '/nonexistent-home');
    vi.stubEnv('CLOUDSDK_CONFIG', '/nonexistent-gcloud');
    const token = applicationDefaultToken();
    expect([await token(), await token()]).toEqual(['metadata-token', 'metadata-token']);
    const tokenCalls = seen.filter((line) => line.includes('/service-accounts/default/token'));
    expect(tokenCalls).toEqual([
      'GET /computeMetadata/v1/instance/service-accounts/default/token?scopes=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fcloud-platform Google',
    ]);
  });
});
