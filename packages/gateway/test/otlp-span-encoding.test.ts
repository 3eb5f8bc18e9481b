import { type Attributes, type AttributeValue, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtobufWriter } from '../src/otlp/protobuf-writer.js';
import { SpanBatch } from '../src/otlp/span-batch.js';

/** Spans made by the SDK itself, as the gateway's processor receives them. */
function spansOf(make: (provider: BasicTracerProvider) => void, resource = resourceFromAttributes({ 'service.name': 'gw-test' })): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  make(provider);
  return exporter.getFinishedSpans();
}

function ours(spans: ReadableSpan[]): Buffer {
  const batch = new SpanBatch();
  for (const span of spans) batch.add(span);
  return Buffer.from(batch.encode());
}

/** The OpenTelemetry JS protobuf serializer's bytes for the same spans: the reference. */
function official(spans: ReadableSpan[]): Buffer {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
}

const remoteParent = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
  isRemote: true,
  traceState: new TraceState('vendor=a,other=b'),
};

describe('SpanBatch encoding', () => {
  it('writes the same bytes as the OpenTelemetry serializer for the gateway-shaped spans', () => {
    const spans = spansOf((provider) => {
      const tracer = provider.getTracer('@llm/gateway');
      const server = tracer.startSpan('POST /v1/chat/completions', { kind: SpanKind.SERVER }, trace.setSpanContext(ROOT_CONTEXT, remoteParent));
      const attempt = tracer.startSpan('chat', { kind: SpanKind.CLIENT }, trace.setSpan(ROOT_CONTEXT, server));
      attempt.setAttributes({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'server.address': '127.0.0.1', 'server.port': 9100 });
      attempt.setAttribute('http.response.status_code', 200);
      attempt.end();
      server.setAttributes({
        'http.request.method': 'POST',
        'http.response.status_code': 502,
        'gen_ai.request.model': 'client-gpt-4o-mini',
        'gen_ai.usage.input_tokens': 512,
        'llm_gateway.fallbacks': 0,
        'error.type': 'upstream',
      });
      server.updateName('chat client-gpt-4o-mini');
      server.setStatus({ code: SpanStatusCode.ERROR });
      server.end();
    });
    expect(spans).toHaveLength(2);
    expect(ours(spans).equals(official(spans))).toBe(true);
  });

  it('writes events, links, status messages, every kind, every value type and long or non-ASCII strings as the serializer does', () => {
    const long = 'x'.repeat(200);
    const huge = 'é'.repeat(9000); // 18,000 bytes: a three-byte length
    const spans = spansOf((provider) => {
      const tracer = provider.getTracer('scope-a', '1.2.3');
      for (const kind of [SpanKind.INTERNAL, SpanKind.SERVER, SpanKind.CLIENT, SpanKind.PRODUCER, SpanKind.CONSUMER]) {
        const span = tracer.startSpan(`kind ${kind}`, {
          kind,
          links: [{ context: remoteParent, attributes: { why: 'batch', n: -3 } }, { context: { ...remoteParent, isRemote: false, traceState: undefined } }],
        });
        span.setAttributes({
          text: 'plain',
          unicode: 'naïve 日本語 🚀',
          surrogate: 'a\uD800b',
          long,
          huge,
          big: 2 ** 40,
          negative: -17,
          minimum: -(2 ** 53),
          double: 3.25,
          nan: Number.NaN,
          infinite: Number.POSITIVE_INFINITY,
          yes: true,
          no: false,
          strings: ['a', 'b', long],
          numbers: [1, 2.5, -1],
          holes: ['a', null, undefined, 'b'] as AttributeValue,
          empty: [],
        });
        span.addEvent('retry', { attempt: 2, reason: 'timeout' });
        span.addEvent('bare');
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream said no: ✗' });
        span.end();
      }
    });
    expect(spans).toHaveLength(5);
    expect(ours(spans).equals(official(spans))).toBe(true);
  });

  it('writes the same bytes again from its cache of repeated attributes, and past a key’s cached share', () => {
    const spans = spansOf((provider) => {
      const tracer = provider.getTracer('cache');
      // 100 distinct values of one key (its share is 32), each value twice, mixed types.
      for (let index = 0; index < 200; index++) {
        const span = tracer.startSpan('cached');
        span.setAttributes({
          'cache.id': `id-${index % 100}`,
          'cache.n': index % 100,
          'cache.same': 'always',
          'cache.flag': index % 2 === 0,
          'cache.long': 'y'.repeat(129),
        });
        span.end();
      }
    });
    const first = ours(spans);
    expect(first.equals(official(spans))).toBe(true);
    expect(ours(spans).equals(first)).toBe(true);
  });

  it('groups spans by resource and scope, with schema URLs, as the serializer does', () => {
    const exporter = new InMemorySpanExporter();
    const resource = resourceFromAttributes({ 'service.name': 'one', 'service.version': '9' }, { schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' });
    const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const other = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'two' }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.getTracer('a').startSpan('a1').end();
    provider.getTracer('b', '2', { schemaUrl: 'https://example.com/schema' }).startSpan('b1').end();
    other.getTracer('a').startSpan('two-a1').end();
    provider.getTracer('a').startSpan('a2').end();
    const spans = exporter.getFinishedSpans();
    expect(ours(spans).equals(official(spans))).toBe(true);
  });

  it('matches the serializer on random attributes and names (property, fixed seed)', () => {
    const scalar = fc.oneof(fc.string({ unit: 'binary' }), fc.integer(), fc.double(), fc.boolean(), fc.constant(2 ** 45), fc.constant(-(2 ** 40)));
    const value: fc.Arbitrary<AttributeValue> = fc.oneof(
      scalar,
      fc.array(fc.oneof(fc.string(), fc.constant(null))) as fc.Arbitrary<AttributeValue>,
      fc.array(fc.integer()),
    );
    const attributes = fc.dictionary(fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }), value, { maxKeys: 12 });
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), attributes, fc.array(attributes, { maxLength: 3 }), (name, spanAttributes, events) => {
        const spans = spansOf((provider) => {
          const span = provider.getTracer('p').startSpan(name, { kind: SpanKind.CLIENT });
          span.setAttributes(spanAttributes as Attributes);
          for (const [index, eventAttributes] of events.entries()) span.addEvent(`e${index}`, eventAttributes as Attributes);
          span.end();
        });
        expect(ours(spans).equals(official(spans))).toBe(true);
      }),
      { seed: 20261202, numRuns: 150 },
    );
  });
});

describe('ProtobufWriter', () => {
  it('moves a nested body when its length needs more bytes, and grows past its capacity', () => {
    const w = new ProtobufWriter(4);
    const outer = w.begin();
    const inner = w.begin();
    w.raw(Buffer.alloc(200, 7));
    w.end(inner);
    w.end(outer);
    const bytes = w.take();
    // outer length 202 = 0xca 0x01; inner length 200 = 0xc8 0x01.
    expect([...bytes.subarray(0, 4)]).toEqual([0xca, 0x01, 0xc8, 0x01]);
    expect(bytes.length).toBe(204);
    expect(bytes.subarray(4).every((byte) => byte === 7)).toBe(true);
  });

  it('writes negative integers as 64-bit two’s complement varints and ids as bytes', () => {
    const w = new ProtobufWriter(2);
    w.varint(-1);
    w.hexBytes('00ff10');
    expect([...w.take()]).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 3, 0x00, 0xff, 0x10]);
  });
});
