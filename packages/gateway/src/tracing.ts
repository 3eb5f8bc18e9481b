import type { Attributes, Context, Span, SpanContext, Tracer } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { HeaderReader, ProtocolId } from '@llm/core';
import type { AccessEntry } from './access-log.js';
import type { CloudFlavorName } from './clouds/cloud-adapter.js';
import type { Transport, UpstreamConfig, UpstreamRequest } from './router-contract.js';
import { byBaseUrl } from './upstream-by-url.js';

/** The config's `tracing`: where spans are exported (OTLP over HTTP). */
export interface TracingConfig {
  /** The OTLP/HTTP traces URL, e.g. `http://127.0.0.1:4318/v1/traces`. */
  endpoint: string;
  /** Headers sent with each export (an API key of the collector). */
  headers?: Record<string, string>;
  /** `service.name` of the spans (default `llm-gateway`). */
  serviceName?: string;
  /**
   * The share of requests without a client trace whose spans are recorded and exported (default
   * 1: all). A request with a `traceparent` follows the client's sampled flag, as W3C asks; an
   * unrecorded request still sends its upstream a `traceparent` (flag 00).
   */
  sampleRatio?: number;
  /** The export's encoding, as OTLP names it: `http/protobuf` (default) or `http/json`. */
  protocol?: 'http/protobuf' | 'http/json';
}

/** One request's trace: its span, and what its upstream attempts are children of. */
export interface RequestTrace {
  readonly span: Span;
  readonly context: SpanContext;
}

/** What the gateway's handler and transport ask of tracing (see {@link createTracing}). */
export interface GatewayTracing {
  /**
   * Starts a request's span, a child of the client's `traceparent` when it sent a valid one; until
   * {@link end}, upstream attempts that name `requestId` (`UpstreamRequest.requestId`) are its children.
   * A request that is not recorded (sampled out, or the client's flag 00) gets a non-recording span
   * and makes no SDK span at all.
   */
  start(method: string, path: string, headers: HeaderReader, requestId: string): RequestTrace;
  /** Ends a request's span with its access line's fields. */
  end(trace: RequestTrace, entry: AccessEntry): void;
  /** The transport with a span per upstream attempt, its `traceparent` sent upstream (a cloud upstream names its `flavor`). */
  transport(transport: Transport, upstreams: Readonly<Record<string, UpstreamConfig & { flavor?: CloudFlavorName }>>): Transport;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

/** `gen_ai.provider.name` (and the older `gen_ai.system`) of each upstream protocol. */
const PROVIDER: Readonly<Record<ProtocolId, string>> = {
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  claude: 'anthropic',
  gemini: 'gcp.gemini',
  'bedrock-converse': 'aws.bedrock',
};

/** The cloud upstreams' own `gen_ai.provider.name` (the GenAI conventions' names), over the protocol's. */
const CLOUD_PROVIDER: Readonly<Record<CloudFlavorName, string>> = {
  vertex: 'gcp.vertex_ai',
  azure: 'azure.ai.openai',
  bedrock: 'aws.bedrock',
};

/** Milliseconds between exports of finished spans (the SDK's batch default). */
const EXPORT_DELAY_MS = 5_000;

/**
 * Tracing with OpenTelemetry: a SERVER span per request and a CLIENT span per upstream attempt
 * (retries and fallbacks each get one), with the GenAI semantic conventions, exported over
 * OTLP/HTTP in batches. The SDK is loaded here only, when tracing is configured: with tracing
 * off the gateway loads none of it and pays nothing.
 *
 * Whether a request is recorded is decided here, before the SDK is asked for anything: the
 * client's sampled flag when it sent a `traceparent`, else the ratio sampler on a new trace id
 * (the SDK's own `TraceIdRatioBasedSampler`; a recorded root span then takes that trace id). An
 * unrecorded request makes no SDK span, and its attempts send `traceparent` with flag 00 in its
 * trace. The SDK sees recorded spans only (its sampler: always on). Attributes are set once per
 * span, after it is made (`startSpan`'s attributes are checked and copied three times over).
 *
 * Which request an upstream attempt belongs to is the request id the router puts on each upstream
 * call, looked up among the requests in flight: no `AsyncLocalStorage`, whose promise hooks made
 * every promise of a traced request cost more on Node 20 (tools/bench README: +95 % CPU per 2 KB
 * request with it). Request ids may come from clients (`x-request-id`): a second request under an
 * id in flight takes it over, and later attempts under that id are its children.
 */
export async function createTracing(config: TracingConfig, exporter?: SpanExporter, onExportError?: ExportErrorListener): Promise<GatewayTracing> {
  const [api, sdk, core, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
  ]);
  const processor = exporter ? new sdk.SimpleSpanProcessor(exporter) : await exportingProcessor(config, sdk, onExportError);
  const ids = new sdk.RandomIdGenerator();
  /** The share of new traces recorded: all of them (no check), none, or those the ratio sampler keeps. */
  const share = config.sampleRatio ?? 1;
  const ratio = new sdk.TraceIdRatioBasedSampler(share);
  /** The trace id the root span being made takes: the one its sampling was decided on. */
  let rootTraceId: string | undefined;
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': config.serviceName ?? 'llm-gateway' }),
    spanProcessors: [processor],
    sampler: new sdk.AlwaysOnSampler(),
    idGenerator: { generateTraceId: () => rootTraceId ?? ids.generateTraceId(), generateSpanId: ids.generateSpanId },
  });
  const tracer: Tracer = provider.getTracer('@llm/gateway');
  const serverSpan = { kind: api.SpanKind.SERVER };
  const clientSpan = { kind: api.SpanKind.CLIENT };
  /** Requests whose span is open, by request id. */
  const inFlight = new Map<string, Trace>();

  return {
    start(method, path, headers, requestId) {
      const parentHeader = headers.get('traceparent');
      const parent = parentHeader === null ? undefined : core.parseTraceParent(parentHeader);
      let trace: Trace;
      if (parent) {
        const state = headers.get('tracestate');
        if (state !== null) parent.traceState = new core.TraceState(state);
        parent.isRemote = true;
        trace =
          (parent.traceFlags & api.TraceFlags.SAMPLED) === 0
            ? unrecorded(api, { traceId: parent.traceId, spanId: ids.generateSpanId(), traceFlags: api.TraceFlags.NONE, traceState: parent.traceState })
            : recorded(tracer.startSpan(`${method} ${path}`, serverSpan, api.trace.setSpanContext(api.ROOT_CONTEXT, parent)), method, path);
      } else if (share >= 1) trace = recorded(tracer.startSpan(`${method} ${path}`, serverSpan, api.ROOT_CONTEXT), method, path);
      else {
        const traceId = ids.generateTraceId();
        if (share > 0 && ratio.shouldSample(api.ROOT_CONTEXT, traceId).decision === sdk.SamplingDecision.RECORD_AND_SAMPLED) {
          rootTraceId = traceId;
          try {
            trace = recorded(tracer.startSpan(`${method} ${path}`, serverSpan, api.ROOT_CONTEXT), method, path);
          } finally {
            rootTraceId = undefined;
          }
        } else trace = unrecorded(api, { traceId, spanId: ids.generateSpanId(), traceFlags: api.TraceFlags.NONE });
      }
      inFlight.set(requestId, trace);
      return trace;
    },
    end(trace, entry) {
      if (inFlight.get(entry.requestId) === trace) inFlight.delete(entry.requestId);
      const { span } = trace;
      if (!(trace instanceof Trace) || !trace.recorded || !span.isRecording()) return;
      const generation = entry.clientModel !== undefined;
      // One write: the SDK skips the undefined ones.
      span.setAttributes({
        'http.request.method': trace.method,
        'url.path': trace.path,
        'http.response.status_code': entry.status,
        'llm_gateway.request_id': entry.requestId,
        'llm_gateway.client_protocol': entry.protocol,
        // A generation: named and described as the GenAI conventions say.
        'gen_ai.operation.name': generation ? 'chat' : undefined,
        'gen_ai.request.model': entry.clientModel,
        'gen_ai.response.model': entry.upstreamModel,
        'llm_gateway.upstream': entry.upstream,
        'llm_gateway.fallbacks': entry.fallbacks,
        'llm_gateway.attempts': entry.attempts,
        'gen_ai.usage.input_tokens': entry.inputTokens,
        'gen_ai.usage.output_tokens': entry.outputTokens,
        'error.type': entry.errorKind,
      });
      if (generation) span.updateName(`chat ${entry.clientModel}`);
      if (entry.errorKind !== undefined) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    },
    transport(transport, upstreams) {
      // Each upstream's attributes made once: its provider, name and server (a request URL starts with its base URL).
      const attributesOf = byBaseUrl(
        Object.entries(upstreams).map(([name, upstream]) => ({
          base: upstream.baseUrl,
          value: new AttemptAttributes({ 'gen_ai.operation.name': 'chat', ...providerAttributes(name, upstream), ...serverAttributes(upstream.baseUrl) }),
        })),
      );
      return (request) => {
        const trace = request.requestId === undefined ? undefined : inFlight.get(request.requestId);
        if (!trace || request.purpose === 'media') return transport(request);
        const { traceId, traceState } = trace.context;
        if (!trace.recorded) {
          // No span: the upstream gets an unsampled traceparent in the request's trace, as the SDK's non-recording spans did.
          const headers: Record<string, string> = { ...request.headers, traceparent: `00-${traceId}-${ids.generateSpanId()}-00` };
          if (traceState) headers.tracestate = traceState.serialize();
          return transport(new TracedCall(request, headers));
        }
        const span = tracer.startSpan('chat', clientSpan, trace.parentContext(api));
        span.setAttributes(
          (attributesOf(request.url) ?? new AttemptAttributes({ 'gen_ai.operation.name': 'chat', ...serverAttributes(request.url) })).of(request.method),
        );
        // The attempt's own span is the upstream's parent.
        const headers: Record<string, string> = { ...request.headers, traceparent: `00-${traceId}-${span.spanContext().spanId}-01` };
        if (traceState) headers.tracestate = traceState.serialize();
        return transport(new TracedCall(request, headers)).then(
          (response) => {
            if (response.status >= 400) {
              span.setAttributes({ 'http.response.status_code': response.status, 'error.type': String(response.status) });
              span.setStatus({ code: api.SpanStatusCode.ERROR });
            } else span.setAttribute('http.response.status_code', response.status);
            span.end();
            return response;
          },
          (error: unknown) => {
            span.setAttribute('error.type', error instanceof Error ? error.name : 'error');
            span.setStatus({ code: api.SpanStatusCode.ERROR });
            span.end();
            throw error;
          },
        );
      };
    },
    shutdown: () => provider.shutdown(),
  };
}

/** Told when a batch of spans could not be exported (the spans are dropped). */
export type ExportErrorListener = (error: Error, spans: number) => void;

/**
 * The processor that exports to the configured endpoint: protobuf spans are encoded as they end
 * and sent in batches (`EncodingSpanProcessor`, over the official exporter's transport); `http/json`
 * goes through the SDK's batch processor and JSON exporter. Same batching either way: 512 spans,
 * or 5 s.
 */
async function exportingProcessor(config: TracingConfig, sdk: typeof import('@opentelemetry/sdk-trace-base'), onError?: ExportErrorListener) {
  const options = { url: config.endpoint, headers: config.headers };
  if (config.protocol === 'http/json') {
    const exporter = new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(options);
    return new sdk.BatchSpanProcessor(exporter, { scheduledDelayMillis: EXPORT_DELAY_MS });
  }
  const [{ EncodingSpanProcessor }, { otlpBatchExporter }] = await Promise.all([
    import('./otlp/encoding-span-processor.js'),
    import('./otlp/otlp-batch-exporter.js'),
  ]);
  return new EncodingSpanProcessor(await otlpBatchExporter(options), { delayMs: EXPORT_DELAY_MS, onError });
}

type Api = typeof import('@opentelemetry/api');

/** A request's trace as tracing keeps it: recorded or not, and what its end writes. */
class Trace implements RequestTrace {
  /** The context its attempts' spans are made in (made at the first attempt). */
  private attemptParent: Context | undefined;

  constructor(
    readonly span: Span,
    readonly context: SpanContext,
    readonly recorded: boolean,
    readonly method: string,
    readonly path: string,
  ) {}

  parentContext(api: Api): Context {
    this.attemptParent ??= api.trace.setSpan(api.ROOT_CONTEXT, this.span);
    return this.attemptParent;
  }
}

/** A recorded request's trace: its SDK span. */
function recorded(span: Span, method: string, path: string): Trace {
  return new Trace(span, span.spanContext(), true, method, path);
}

/** An unrecorded request's trace: a non-recording span of the API (no SDK span). */
function unrecorded(api: Api, context: SpanContext): Trace {
  return new Trace(api.trace.wrapSpanContext(context), context, false, '', '');
}

/** An upstream's attempt attributes, one prebuilt object per request method. */
class AttemptAttributes {
  private readonly byMethod = new Map<string, Attributes>();

  constructor(private readonly base: Attributes) {}

  of(method: string): Attributes {
    let attributes = this.byMethod.get(method);
    if (!attributes) this.byMethod.set(method, (attributes = { ...this.base, 'http.request.method': method }));
    return attributes;
  }
}

/** `server.address` and `server.port` of a URL (none for one that does not parse). */
function serverAttributes(text: string): Record<string, string | number> {
  const url = URL.parse(text);
  return url ? { 'server.address': url.hostname, 'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)) } : {};
}

/**
 * An attempt's request with the trace's headers: the router's fields copied, its lazy `signal`
 * read through (`cancel` is the same cancellation). Not `Object.create(request)`: an object used
 * as a prototype gets a map of its own in V8, and every reader of the request a slow path.
 */
class TracedCall implements UpstreamRequest {
  readonly url: string;
  readonly method: UpstreamRequest['method'];
  readonly body: UpstreamRequest['body'];
  readonly requestId: string | undefined;
  readonly cancel: UpstreamRequest['cancel'];
  readonly redirect: UpstreamRequest['redirect'];
  readonly purpose: UpstreamRequest['purpose'];
  readonly internalAllowed: boolean | undefined;

  constructor(
    private readonly call: UpstreamRequest,
    readonly headers: Record<string, string>,
  ) {
    this.url = call.url;
    this.method = call.method;
    this.body = call.body;
    this.requestId = call.requestId;
    this.cancel = call.cancel;
    this.redirect = call.redirect;
    this.purpose = call.purpose;
    this.internalAllowed = call.internalAllowed;
  }

  get signal(): AbortSignal | undefined {
    return this.call.signal;
  }
}

/** Which provider an attempt went to: the cloud's name for a cloud upstream, else the protocol's vendor. */
function providerAttributes(name: string, upstream: UpstreamConfig & { flavor?: CloudFlavorName }): Record<string, string> {
  const provider = upstream.flavor ? CLOUD_PROVIDER[upstream.flavor] : PROVIDER[upstream.protocol];
  return { 'gen_ai.provider.name': provider, 'gen_ai.system': provider, 'llm_gateway.upstream': name };
}
