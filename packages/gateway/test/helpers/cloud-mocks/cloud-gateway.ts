// The gateway in front of the cloud mock, as the cloud tests start it: no ledger, no retries, a
// silent log; and the cloud upstream configs that point at the mock, one per way of signing in.
import { parseConfig } from '../../../src/config/load.js';
import { createLogger } from '../../../src/logger.js';
import { type Gateway, type StartGatewayOptions, startGateway } from '../../../src/server/start.js';
import { AWS, AZURE, type CloudMock, VERTEX } from './cloud-mock.js';

export function startCloudGateway(config: Record<string, unknown>, options: StartGatewayOptions = {}): Promise<Gateway> {
  return startGateway(parseConfig(JSON.stringify({ ledger: false, maxRetries: 0, ...config })), { port: 0, logger: createLogger('silent'), ...options });
}

/** Cloud upstream configs on the mock: Vertex with a static token, Azure with its api-key, Bedrock with a long-term key. */
export function mockCloudUpstreams(mock: CloudMock) {
  const vertex = { flavor: 'vertex', baseUrl: mock.url, project: VERTEX.project, location: VERTEX.location, accessToken: VERTEX.staticToken };
  return {
    vertexGemini: { protocol: 'gemini', ...vertex },
    vertexClaude: { protocol: 'claude', ...vertex },
    azureChat: { protocol: 'openai-chat', flavor: 'azure', baseUrl: mock.url, apiVersion: AZURE.apiVersion, apiKey: AZURE.apiKey },
    bedrock: {
      protocol: 'claude',
      flavor: 'bedrock',
      baseUrl: mock.url,
      region: AWS.region,
      accessKeyId: AWS.accessKeyId,
      secretAccessKey: AWS.secretAccessKey,
    },
  };
}
