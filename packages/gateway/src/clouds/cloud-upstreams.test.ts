import { describe, expect, it } from 'vitest';
import { routerUpstreams } from './cloud-upstreams.js';

describe("the router's view of cloud upstreams", () => {
  it('marks Claude on Bedrock and Vertex as unable to run MCP servers (no MCP connector there); others keep their protocol’s ability', () => {
    const view = routerUpstreams(
      {
        anthropic: { protocol: 'claude', baseUrl: 'https://api.anthropic.com', apiKey: 'k' },
        bedrock: { protocol: 'claude', flavor: 'bedrock', region: 'us-east-1', accessKeyId: 'A', secretAccessKey: 'S' },
        vertex: { protocol: 'claude', flavor: 'vertex', project: 'p', location: 'us-east5', accessToken: 't' },
        azure: { protocol: 'openai-responses', flavor: 'azure', baseUrl: 'https://r.openai.azure.com', apiKey: 'k' },
      } as Parameters<typeof routerUpstreams>[0],
      {},
    );
    expect(Object.fromEntries(Object.entries(view).map(([name, upstream]) => [name, upstream.hostsMcp]))).toEqual({
      anthropic: undefined,
      bedrock: false,
      vertex: false,
      azure: undefined,
    });
  });
});
