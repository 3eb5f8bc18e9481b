// CPU per span of the gateway's OTLP protobuf encoding (src/otlp: SpanBatch, spans encoded as
// they end) against the OpenTelemetry JS serializer (`ProtobufTraceSerializer`, what the SDK's
// protobuf exporter runs on a batch), on 512 gateway-shaped spans (a SERVER span with the
// request's 13 attributes and a CLIENT attempt span with 8), in alternating rounds.
//
//   cd tools/bench && node --import tsx load/otlp-encoding.mjs [--rounds=5] [--batches=200]
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { REPO, arg } from './args.mjs';

const ROUNDS = Number(arg('rounds', 5));
const BATCHES = Number(arg('batches', 200));
const gateway = join(REPO, 'packages/gateway');
const need = createRequire(join(gateway, 'package.json'));
const api = need('@opentelemetry/api');
const { ProtobufTraceSerializer } = need('@opentelemetry/otlp-transformer');
const { resourceFromAttributes } = need('@opentelemetry/resources');
const sdk = need('@opentelemetry/sdk-trace-base');
const { SpanBatch } = await import(pathToFileURL(join(gateway, 'src/otlp/span-batch.ts')).href);

const exporter = new sdk.InMemorySpanExporter();
const provider = new sdk.BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'llm-gateway' }),
  spanProcessors: [new sdk.SimpleSpanProcessor(exporter)],
});
const tracer = provider.getTracer('@llm/gateway');
for (let i = 0; i < 256; i++) {
  const server = tracer.startSpan('POST /v1/chat/completions', { kind: api.SpanKind.SERVER });
  const attempt = tracer.startSpan('chat', { kind: api.SpanKind.CLIENT }, api.trace.setSpan(api.ROOT_CONTEXT, server));
  attempt.setAttributes({
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.system': 'openai',
    'llm_gateway.upstream': 'up',
    'server.address': '127.0.0.1',
    'server.port': 9100,
    'http.request.method': 'POST',
  });
  attempt.setAttribute('http.response.status_code', 200);
  attempt.end();
  server.setAttributes({
    'http.request.method': 'POST',
    'url.path': '/v1/chat/completions',
    'http.response.status_code': 200,
    'llm_gateway.request_id': `req_${i.toString(16).padStart(24, '0')}`,
    'llm_gateway.client_protocol': 'openai-chat',
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'client-gpt-4o-mini',
    'gen_ai.response.model': 'gpt-4o-mini',
    'llm_gateway.upstream': 'up',
    'llm_gateway.fallbacks': 0,
    'gen_ai.usage.input_tokens': 500,
    'gen_ai.usage.output_tokens': 100,
  });
  server.updateName('chat client-gpt-4o-mini');
  server.end();
}
const spans = exporter.getFinishedSpans();
const perSpan = (encode) => {
  const before = process.cpuUsage();
  for (let i = 0; i < BATCHES; i++) encode();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / BATCHES / spans.length;
};
const official = () => ProtobufTraceSerializer.serializeRequest(spans);
const ours = () => {
  const batch = new SpanBatch();
  for (const span of spans) batch.add(span);
  return batch.encode();
};
if (Buffer.compare(Buffer.from(official()), Buffer.from(ours())) !== 0) throw new Error('the two encodings differ');
perSpan(official);
perSpan(ours);
const rows = [];
for (let r = 0; r < ROUNDS; r++) rows.push([perSpan(official), perSpan(ours)]);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
console.log(`CPU µs per span, ${spans.length} spans x ${BATCHES} batches, ${ROUNDS} rounds (same bytes checked first)`);
console.log(`OpenTelemetry ProtobufTraceSerializer  ${median(rows.map((r) => r[0])).toFixed(2)}  (${rows.map((r) => r[0].toFixed(2)).join(' / ')})`);
console.log(`gateway SpanBatch                      ${median(rows.map((r) => r[1])).toFixed(2)}  (${rows.map((r) => r[1].toFixed(2)).join(' / ')})`);
console.log(`ratio (median of rounds)               ${median(rows.map((r) => r[0] / r[1])).toFixed(2)}x`);
