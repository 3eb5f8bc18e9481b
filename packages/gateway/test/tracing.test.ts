import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { type MockUpstream, startMockUpstream } from '../src/mock/server.js';
import { type NodeServer, serveNode } from '../src/server/node-adapter.js';
import { type Gateway, startGateway } from '../src/server/start.js';
import { startListening } from './helpers/listening-process.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

// Issue 20: OpenTelemetry traces with the GenAI conventions, the client's traceparent continued
// and propagated upstream; tested with the SDK's in-memory exporter.
let chat: MockUpstream;
let down: NodeServer;
let gateway: Gateway;
const exporter = new InMemorySpanExporter();
/** The `traceparent` (and `tracestate`) each call to the failing upstream carried. */
const seenUpstream: (string | undefined)[] = [];
const seenState: (string | undefined)[] = [];

const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';

beforeAll(async () => {
  chat = await startMockUpstream({ protocol: 'openai-chat' });
  down = await serveNode(async (request) => {
    seenUpstream.push(request.headers.get('traceparent') ?? undefined);
    seenState.push(request.headers.get('tracestate') ?? undefined);
    return new Response('{"error":{"message":"down","type":"server_error"}}', { status: 503, headers: { 'content-type': 'application/json' } });
  });
  gateway = await startGateway(fallingOverConfig(), { port: 0, logger: createLogger('silent'), spanExporter: exporter });
});

/** A route whose first upstream is down (503) and second answers; `extra` adds config keys. */
function fallingOverConfig(extra: Record<string, unknown> = {}) {
  return parseConfig(
    JSON.stringify({
      upstreams: { down: { protocol: 'openai-chat', baseUrl: `${down.url}/v1` }, chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl } },
      routes: [{ match: '*', upstream: ['down', 'chat'], model: 'gpt-4.1' }],
      maxRetries: 0,
      ledger: false,
      metrics: false,
      ...extra,
    }),
  );
}
afterAll(async () => {
  await gateway.close();
  await Promise.all([chat.close(), down.close()]);
});

/**
 * Counts the spans the SDK makes: every tracer of the SDK shares the `Tracer` class of the one made
 * here (the gateway loads the same modules), so this counts the gateway's `startSpan` calls.
 */
function countStartedSpans() {
  const tracerClass = Object.getPrototypeOf(new BasicTracerProvider().getTracer('probe')) as { startSpan: (...args: unknown[]) => unknown };
  return vi.spyOn(tracerClass, 'startSpan');
}

/** A chat request to `base`, read to its end. */
async function send(base: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: 'my-model', messages: [{ role: 'user', content: 'hello there' }] }),
  });
  expect(res.status).toBe(200);
  await res.text();
}

/**
 * What a served gateway (`tracing` with `extra` on a receiver of its own) exported for one chat
 * request, flushed by SIGTERM: each export's path, content type, collector key and body.
 */
/** What the last served process of {@link exportedBy} logged. */
let lastStdout = '';

async function exportedBy(extra: Record<string, unknown>, receiverStatus = 200) {
  const received: { path: string; contentType: string | undefined; key: string | undefined; body: Uint8Array }[] = [];
  // A plain node:http receiver: a protobuf body is bytes, not text.
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const header = (name: string) => request.headers[name] as string | undefined;
      received.push({
        path: request.url ?? '',
        contentType: header('content-type'),
        key: header('x-collector-key'),
        body: new Uint8Array(Buffer.concat(chunks)),
      });
      response.writeHead(receiverStatus, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  const dir = mkdtempSync(join(tmpdir(), 'otlp-'));
  const file = join(dir, 'gateway.json');
  writeFileSync(
    file,
    JSON.stringify({
      upstreams: { chat: { protocol: 'openai-chat', baseUrl: chat.baseUrl } },
      routes: [{ match: '*', upstream: 'chat' }],
      ledger: false,
      metrics: false,
      tracing: { endpoint: `http://127.0.0.1:${port}/v1/traces`, headers: { 'x-collector-key': 'c-1' }, serviceName: 'gw-test', ...extra },
    }),
  );
  const { url, child, exited, stdout } = await startListening(
    ['--import', 'tsx', '--conditions=@llm/source', 'src/cli.ts', 'serve', '--config', file, '--port', '0'],
    {
      cwd: packageDir,
    },
  );
  try {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm-1', messages: [{ role: 'user', content: 'hi' }] }),
    });
    await res.text();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
  lastStdout = stdout();
  return received;
}

/** A protobuf message's length-delimited fields (wire type 2) by field number; other fields skipped. */
function protoFields(bytes: Uint8Array): Map<number, Uint8Array[]> {
  const fields = new Map<number, Uint8Array[]>();
  let at = 0;
  const varint = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const tag = varint();
    const wire = tag & 7;
    if (wire === 0) varint();
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const length = varint();
      const field = Math.floor(tag / 8);
      fields.set(field, [...(fields.get(field) ?? []), bytes.subarray(at, at + length)]);
      at += length;
    } else throw new Error(`unexpected wire type ${wire}`);
  }
  return fields;
}

/** What a test checks of a span: its name, kind, ids and attributes. */
function view(span: ReadableSpan) {
  return {
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    parent: span.parentSpanContext?.spanId,
    status: span.status.code,
    attributes: span.attributes,
  };
}

describe('tracing', () => {
  it('makes a server span per request under the client traceparent and a client span per upstream attempt, sending each attempt its own traceparent', async () => {
    exporter.reset();
    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`, 'x-request-id': 'traced' },
      body: JSON.stringify({ model: 'my-model', messages: [{ role: 'user', content: 'hello there' }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(3);
    const [downAttempt, chatAttempt, request] = exporter.getFinishedSpans();
    const requestId = request!.spanContext().spanId;
    const port = (url: string) => Number(new URL(url).port);
    expect(view(request!)).toEqual({
      name: 'chat my-model',
      kind: 1, // SERVER
      traceId: CLIENT_TRACE,
      parent: CLIENT_SPAN,
      status: 0,
      attributes: {
        'http.request.method': 'POST',
        'url.path': '/v1/chat/completions',
        'http.response.status_code': 200,
        'llm_gateway.request_id': 'traced',
        'llm_gateway.client_protocol': 'openai-chat',
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'my-model',
        'gen_ai.response.model': 'gpt-4.1',
        'llm_gateway.upstream': 'chat',
        'llm_gateway.fallbacks': 1,
        'llm_gateway.attempts': 2,
        'gen_ai.usage.input_tokens': 3,
        'gen_ai.usage.output_tokens': 5,
      },
    });
    expect(view(downAttempt!)).toEqual({
      name: 'chat',
      kind: 2, // CLIENT
      traceId: CLIENT_TRACE,
      parent: requestId,
      status: 2, // ERROR
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.system': 'openai',
        'llm_gateway.upstream': 'down',
        'server.address': '127.0.0.1',
        'server.port': port(down.url),
        'http.request.method': 'POST',
        'http.response.status_code': 503,
        'error.type': '503',
      },
    });
    expect(view(chatAttempt!)).toMatchObject({
      name: 'chat',
      kind: 2,
      traceId: CLIENT_TRACE,
      parent: requestId,
      status: 0,
      attributes: { 'llm_gateway.upstream': 'chat', 'http.response.status_code': 200, 'server.port': port(chat.url) },
    });
    // The upstream saw the attempt's span as its parent, in the client's trace.
    expect(seenUpstream.at(-1)).toBe(`00-${CLIENT_TRACE}-${downAttempt!.spanContext().spanId}-01`);
  });

  it('parents each attempt to its own request when requests overlap (the request id the router names on the call)', async () => {
    exporter.reset();
    const ids = ['overlap-1', 'overlap-2', 'overlap-3'];
    await Promise.all(
      ids.map(async (id) => {
        const res = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'x-request-id': id },
          body: JSON.stringify({ model: 'my-model', messages: [{ role: 'user', content: 'hello there' }] }),
        });
        await res.text();
      }),
    );
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(9);
    const spans = exporter.getFinishedSpans();
    const requests = spans.filter((span) => span.kind === 1);
    const tree = requests
      .map((request) => ({
        requestId: request.attributes['llm_gateway.request_id'],
        attempts: spans
          .filter((span) => span.kind === 2 && span.parentSpanContext?.spanId === request.spanContext().spanId)
          .map((span) => ({ upstream: span.attributes['llm_gateway.upstream'], sameTrace: span.spanContext().traceId === request.spanContext().traceId })),
      }))
      .sort((a, b) => String(a.requestId).localeCompare(String(b.requestId)));
    const attempts = [
      { upstream: 'down', sameTrace: true },
      { upstream: 'chat', sameTrace: true },
    ];
    expect(tree).toEqual(ids.map((requestId) => ({ requestId, attempts })));
  });

  it('starts a new trace without a traceparent (or with an invalid one), and ends non-generation requests plainly', async () => {
    exporter.reset();
    await (await fetch(`${gateway.url}/health`, { headers: { traceparent: 'garbage' } })).text();
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(1);
    const [health] = exporter.getFinishedSpans();
    expect(view(health!)).toMatchObject({
      name: 'GET /health',
      kind: 1,
      parent: undefined,
      attributes: { 'http.request.method': 'GET', 'url.path': '/health', 'http.response.status_code': 200 },
    });
    expect(health!.spanContext().traceId).not.toBe(CLIENT_TRACE);
  });

  it("makes no span for a client trace that is not sampled (flag 00), and passes the client's trace upstream unsampled", async () => {
    exporter.reset();
    const started = countStartedSpans();
    try {
      await send(gateway.url, { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-00`, tracestate: 'vendor=opaque' });
      expect(started).not.toHaveBeenCalled();
    } finally {
      started.mockRestore();
    }
    const parent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-00$/.exec(seenUpstream.at(-1) ?? '');
    expect(parent?.[1]).toBe(CLIENT_TRACE);
    expect(parent?.[2]).not.toBe(CLIENT_SPAN);
    expect(seenState.at(-1)).toBe('vendor=opaque');
    // Nothing is buffered for export either (this gateway exports each span as it ends).
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  // In a served process: vitest resolves OpenTelemetry's ES builds, whose extensionless imports
  // Node refuses; Node itself loads their CommonJS builds, as the gateway does in production.
  it('exports OTLP/HTTP JSON to the configured endpoint with `protocol: http/json`, flushed on SIGTERM', async () => {
    const received = await exportedBy({ protocol: 'http/json' });
    expect(received.map(({ path, contentType, key }) => ({ path, contentType, key }))).toEqual([
      { path: '/v1/traces', contentType: 'application/json', key: 'c-1' },
    ]);
    const body = JSON.parse(Buffer.from(received[0]!.body).toString()) as {
      resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: { name: string }[] }[] }[];
    };
    const resource = body.resourceSpans[0]!;
    expect(resource.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue).toBe('gw-test');
    expect(resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name)).sort()).toEqual(['chat', 'chat m-1']);
  }, 20_000);

  it('exports OTLP/HTTP protobuf by default, flushed on SIGTERM', async () => {
    const received = await exportedBy({});
    expect(received.map(({ path, contentType, key }) => ({ path, contentType, key }))).toEqual([
      { path: '/v1/traces', contentType: 'application/x-protobuf', key: 'c-1' },
    ]);
    // ExportTraceServiceRequest: 1 resource_spans { 1 resource { 1 attributes { 1 key, 2 value { 1 string } } }, 2 scope_spans { 2 spans } }.
    const text = (bytes: Uint8Array) => Buffer.from(bytes).toString();
    const hex = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString('hex') : undefined);
    const [resourceSpans, ...more] = protoFields(received[0]!.body).get(1) ?? [];
    expect(more).toEqual([]);
    const fields = protoFields(resourceSpans!);
    const attributes = (protoFields(fields.get(1)![0]!).get(1) ?? []).map(protoFields);
    const service = attributes.find((attribute) => text(attribute.get(1)![0]!) === 'service.name');
    expect(text(protoFields(service!.get(2)![0]!).get(1)![0]!)).toBe('gw-test');
    // Span: 1 trace_id, 2 span_id, 4 parent_span_id, 5 name.
    const spans = (fields.get(2) ?? []).flatMap((scope) => protoFields(scope).get(2) ?? []).map(protoFields);
    const view = spans.map((span) => ({
      name: text(span.get(5)![0]!),
      trace: hex(span.get(1)?.[0]),
      id: hex(span.get(2)?.[0]),
      parent: hex(span.get(4)?.[0]),
    }));
    const request = view.find((span) => span.name === 'chat m-1');
    expect(view.map((span) => span.name).sort()).toEqual(['chat', 'chat m-1']);
    expect(view.find((span) => span.name === 'chat')).toMatchObject({ trace: request!.trace, parent: request!.id });
    expect(request!.trace).toMatch(/^[0-9a-f]{32}$/);
  }, 20_000);
});

describe('a collector refusing the last export', () => {
  it('leaves the stop clean (exit 0, closed) with a warn line, not an uncaught exporter error', async () => {
    const received = await exportedBy({}, 500);
    expect(received.length).toBeGreaterThan(0);
    const lines = lastStdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; err?: string });
    const warned = lines.find((line) => line.msg === 'tracing: the last spans could not be exported');
    expect(warned?.level).toBe(40);
    expect(typeof warned?.err).toBe('string');
    expect(lines.at(-1)?.msg).toBe('closed');
  }, 20_000);
});

describe('tracing with sampleRatio 0', () => {
  let sampled: Gateway;
  const sampledExporter = new InMemorySpanExporter();
  beforeAll(async () => {
    const config = fallingOverConfig({ tracing: { endpoint: 'http://unused.invalid/v1/traces', sampleRatio: 0 } });
    sampled = await startGateway(config, { port: 0, logger: createLogger('silent'), spanExporter: sampledExporter });
  });
  afterAll(() => sampled.close());

  it('records no request of its own and makes no span for it, yet passes an unsampled traceparent upstream', async () => {
    const started = countStartedSpans();
    try {
      await send(sampled.url);
      expect(started).not.toHaveBeenCalled();
    } finally {
      started.mockRestore();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sampledExporter.getFinishedSpans()).toEqual([]);
    expect(seenUpstream.at(-1)).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(seenState.at(-1)).toBeUndefined();
  });

  it("records a request whose client trace is sampled: the client's decision wins", async () => {
    const started = countStartedSpans();
    try {
      await send(sampled.url, { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` });
      // The request's span and one per attempt: what the unrecorded requests above do not make.
      expect(started).toHaveBeenCalledTimes(3);
    } finally {
      started.mockRestore();
    }
    await expect.poll(() => sampledExporter.getFinishedSpans().length).toBe(3);
    expect(sampledExporter.getFinishedSpans().map((span) => [span.kind, span.spanContext().traceId])).toEqual([
      [2, CLIENT_TRACE],
      [2, CLIENT_TRACE],
      [1, CLIENT_TRACE],
    ]);
    expect(seenUpstream.at(-1)).toMatch(new RegExp(`^00-${CLIENT_TRACE}-[0-9a-f]{16}-01$`));
  });
});

describe('tracing with sampleRatio 0.5', () => {
  let half: Gateway;
  const halfExporter = new InMemorySpanExporter();
  beforeAll(async () => {
    // No circuit breaker: every request's first attempt reaches the failing upstream, which shows its traceparent.
    const config = fallingOverConfig({ tracing: { endpoint: 'http://unused.invalid/v1/traces', sampleRatio: 0.5 }, circuitBreaker: false });
    half = await startGateway(config, { port: 0, logger: createLogger('silent'), spanExporter: halfExporter });
  });
  afterAll(() => half.close());

  it("records a request by its trace id, as the SDK's ratio sampler decides, and the recorded span keeps that trace id", async () => {
    const from = seenUpstream.length;
    for (let i = 0; i < 24; i++) await send(half.url);
    // Each request's first attempt (to the failing upstream) names its trace and whether it is recorded.
    const traces = seenUpstream.slice(from).map((header) => /^00-([0-9a-f]{32})-[0-9a-f]{16}-(0[01])$/.exec(header ?? '')!);
    expect(traces).toHaveLength(24);
    const sampler = new TraceIdRatioBasedSampler(0.5);
    for (const [, traceId, flags] of traces)
      expect([traceId, flags]).toEqual([traceId, sampler.shouldSample(ROOT_CONTEXT, traceId!).decision === SamplingDecision.RECORD_AND_SAMPLED ? '01' : '00']);
    const recorded = traces.filter(([, , flags]) => flags === '01').map(([, traceId]) => traceId);
    await expect.poll(() => halfExporter.getFinishedSpans().length).toBe(3 * recorded.length);
    const requests = halfExporter.getFinishedSpans().filter((span) => span.kind === 1);
    expect(requests.map((span) => span.spanContext().traceId)).toEqual(recorded);
  });
});
