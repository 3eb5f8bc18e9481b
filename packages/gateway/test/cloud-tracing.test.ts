import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/server/start.js';
import { mockCloudUpstreams, startCloudGateway } from './helpers/cloud-mocks/cloud-gateway.js';
import { type CloudMock, startCloudMock } from './helpers/cloud-mocks/cloud-mock.js';

/** A cloud upstream's attempt spans name the cloud as provider (GenAI conventions) and the host called. */

let mock: CloudMock;
let gateway: Gateway;
const exporter = new InMemorySpanExporter();

describe('cloud upstream spans', () => {
  beforeAll(async () => {
    mock = await startCloudMock();
    const { vertexGemini, azureChat, bedrock } = mockCloudUpstreams(mock);
    const upstreams = { vertex: vertexGemini, azure: azureChat, bedrock };
    const routes = Object.keys(upstreams).map((name) => ({ match: name, upstream: name, model: `${name}-model` }));
    gateway = await startCloudGateway({ upstreams, routes, metrics: false }, { spanExporter: exporter });
  });
  afterAll(async () => {
    await gateway.close();
    await mock.close();
  });

  it('sets gen_ai.provider.name to gcp.vertex_ai, azure.ai.openai and aws.bedrock', async () => {
    exporter.reset();
    for (const model of ['vertex', 'azure', 'bedrock']) {
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello there' }] }),
      });
      expect(response.status).toBe(200);
    }
    const port = Number(new URL(mock.url).port);
    const attempts = exporter
      .getFinishedSpans()
      .filter((span: ReadableSpan) => span.attributes['llm_gateway.upstream'] !== undefined && span.attributes['server.address'] !== undefined)
      .map((span) => [
        span.attributes['llm_gateway.upstream'],
        span.attributes['gen_ai.provider.name'],
        span.attributes['server.address'],
        span.attributes['server.port'],
      ]);
    expect(attempts).toEqual([
      ['vertex', 'gcp.vertex_ai', '127.0.0.1', port],
      ['azure', 'azure.ai.openai', '127.0.0.1', port],
      ['bedrock', 'aws.bedrock', '127.0.0.1', port],
    ]);
  });
});
