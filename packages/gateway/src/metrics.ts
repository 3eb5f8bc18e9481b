import type { AccessEntry } from './access-log.js';
import type { CircuitState } from '@llm/router';
import type { RouterConfig, UpstreamRetries } from './router-contract.js';
import { CIRCUIT_STATE_VALUES } from './server/circuit-health.js';
import { cellCounter, cellHistogram, observeIn } from './metric-cells.js';

/** Label value of a field a request did not have (no upstream, no model: `/health`, a 401). */
const NONE = 'none';
/** Label value of a model name outside the known set: model names are client input. */
export const OTHER_MODEL = 'other';

/** Request duration buckets, seconds: a short completion to a long agent stream. */
const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Time-to-first-byte buckets, seconds. */
const FIRST_BYTE_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Why an upstream attempt failed, as a label: its status (`429`, `503`...), `error` or `timeout`. */
export type AttemptFailure = string;

/** What the gateway tells its metrics (the handler and the transport call these). */
export interface GatewayObserver {
  /** A request arrived. */
  started(): void;
  /** A request's answer is streaming (counted in open streams until {@link ended}). */
  streaming(): void;
  /**
   * A request is over: its access line's fields, and the router's count of calls it resent to
   * each upstream. `streamed` when {@link streaming} was called.
   */
  ended(entry: AccessEntry, streamed: boolean, retries?: readonly UpstreamRetries[]): void;
  /** An upstream API attempt went out. */
  attempt(upstream: string): void;
  /** An upstream API attempt failed (see {@link AttemptFailure}). */
  attemptFailed(upstream: string, reason: AttemptFailure): void;
}

/** The model names a metric may carry: the routes' exact names and targets, and `extra`. */
export function knownModels(routes: RouterConfig['routes'], extra: readonly string[] = []): Set<string> {
  const known = new Set(extra);
  for (const route of routes) {
    if (route.model !== undefined) known.add(route.model);
    for (const entry of Array.isArray(route.upstream) ? route.upstream : [route.upstream])
      if (typeof entry !== 'string' && entry.model !== undefined) known.add(entry.model);
    if (!/[*?]/.test(route.match)) known.add(route.match);
  }
  return known;
}

/**
 * The gateway's Prometheus metrics, in a registry of their own (never prom-client's global one:
 * two gateways in one process, or an embedding application, keep theirs apart). Label values are
 * bounded: protocols and statuses by nature, upstreams by the config, models by
 * {@link knownModels} (any other name is `other`).
 */
export async function createMetrics(models: ReadonlySet<string>, circuits?: () => Iterable<[string, CircuitState]>): Promise<GatewayMetrics> {
  // Loaded only when metrics are on: prom-client costs ~100 ms to load.
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  const registers = [registry];
  // Updated through cells on the request path (metric-cells.ts), handed to prom-client at scrapes.
  const requests = cellCounter(prom, {
    name: 'llm_gateway_requests_total',
    help: 'Requests served, by client protocol, upstream, model (sent upstream) and status.',
    labelNames: ['protocol', 'upstream', 'model', 'status'],
    registers,
  }).cells;
  const duration = cellHistogram(prom, {
    name: 'llm_gateway_request_duration_seconds',
    help: "Time from a request to the end of its answer (a stream's last byte).",
    labelNames: ['protocol', 'upstream'],
    buckets: DURATION_BUCKETS,
    registers,
  }).cells;
  const firstByte = cellHistogram(prom, {
    name: 'llm_gateway_time_to_first_byte_seconds',
    help: "Time from a request to the first byte of its answer (a stream's first event: time to first token).",
    labelNames: ['protocol', 'upstream'],
    buckets: FIRST_BYTE_BUCKETS,
    registers,
  }).cells;
  const tokens = cellCounter(prom, {
    name: 'llm_gateway_tokens_total',
    help: 'Tokens as upstreams reported them, by kind (input includes cached).',
    labelNames: ['upstream', 'model', 'kind'],
    registers,
  }).cells;
  // Plain numbers, read at each scrape.
  let inFlightCount = 0;
  let openStreamCount = 0;
  new prom.Gauge({
    name: 'llm_gateway_requests_in_flight',
    help: 'Requests being served.',
    registers,
    collect() {
      this.set(inFlightCount);
    },
  });
  new prom.Gauge({
    name: 'llm_gateway_open_streams',
    help: 'Streamed answers being written.',
    registers,
    collect() {
      this.set(openStreamCount);
    },
  });
  const attempts = cellCounter(prom, {
    name: 'llm_gateway_upstream_attempts_total',
    help: 'Upstream API calls, retries and fallbacks included.',
    labelNames: ['upstream'],
    registers,
  }).cells;
  // From the router's record, not the transport: only the router knows a call is a resend to
  // the same upstream (the transport sees a retry and a fallback to a same-URL upstream alike).
  const retries = cellCounter(prom, {
    name: 'llm_gateway_upstream_retries_total',
    help: 'Upstream API calls resent to the same upstream within a request (after a 429, 408, 5xx or network error).',
    labelNames: ['upstream'],
    registers,
  }).cells;
  const failures = cellCounter(prom, {
    name: 'llm_gateway_upstream_failures_total',
    help: 'Failed upstream API calls, by reason: the status (429, 5xx), error (no answer) or timeout.',
    labelNames: ['upstream', 'reason'],
    registers,
  }).cells;
  const errors = cellCounter(prom, {
    name: 'llm_gateway_request_errors_total',
    help: 'Requests that failed, or streams that ended with an error event, by error kind (timeout, upstream, rate_limit...).',
    labelNames: ['protocol', 'upstream', 'kind'],
    registers,
  }).cells;
  const fallbacks = cellCounter(prom, {
    name: 'llm_gateway_fallbacks_total',
    help: 'Upstreams of a route tried and left before the one that answered, by the one that answered.',
    labelNames: ['upstream'],
    registers,
  }).cells;
  if (circuits) {
    new prom.Gauge({
      name: 'llm_gateway_upstream_circuit_state',
      help: 'Circuit of each configured upstream: 0 closed, 1 half-open (one probe may go), 2 open (skipped while cooling down).',
      labelNames: ['upstream'],
      registers,
      collect() {
        // Read at each scrape: circuits change with other gateways' events too.
        this.reset();
        for (const [upstream, state] of circuits()) this.set({ upstream }, CIRCUIT_STATE_VALUES[state]);
      },
    });
  }
  let known = models;
  const modelLabel = (model: string | undefined) => (model === undefined ? NONE : known.has(model) ? model : OTHER_MODEL);
  return {
    contentType: registry.contentType,
    text: () => registry.metrics(),
    knowModels: (next) => {
      known = next;
    },
    started: () => {
      inFlightCount++;
    },
    streaming: () => {
      openStreamCount++;
    },
    ended(entry, streamed, retried) {
      inFlightCount--;
      if (streamed) openStreamCount--;
      const protocol = entry.protocol ?? NONE;
      const upstream = entry.upstream ?? NONE;
      const model = modelLabel(entry.upstreamModel);
      requests.get(protocol, upstream, model, entry.status).pending++;
      if (entry.ms !== undefined) observeIn(duration.get(protocol, upstream), DURATION_BUCKETS, entry.ms / 1000);
      if (entry.ttfbMs !== undefined) observeIn(firstByte.get(protocol, upstream), FIRST_BYTE_BUCKETS, entry.ttfbMs / 1000);
      if (entry.inputTokens !== undefined) tokens.get(upstream, model, 'input').pending += entry.inputTokens;
      if (entry.outputTokens !== undefined) tokens.get(upstream, model, 'output').pending += entry.outputTokens;
      if (entry.cachedTokens !== undefined) tokens.get(upstream, model, 'cached').pending += entry.cachedTokens;
      if (entry.fallbacks) fallbacks.get(upstream).pending += entry.fallbacks;
      if (retried) for (const item of retried) retries.get(item.upstream).pending += item.count;
      // Kinds are the router's closed list (LlmErrorKind): a bounded label.
      if (entry.errorKind !== undefined) errors.get(protocol, upstream, entry.errorKind).pending++;
    },
    attempt: (upstream) => {
      attempts.get(upstream).pending++;
    },
    attemptFailed: (upstream, reason) => {
      failures.get(upstream, reason).pending++;
    },
  };
}

/** The metrics: a {@link GatewayObserver} and their Prometheus text. */
export interface GatewayMetrics extends GatewayObserver {
  /** The exposition format's content type. */
  readonly contentType: string;
  /** Every metric in the Prometheus text format. */
  text(): Promise<string>;
  /**
   * The model names labels may carry from now on (a reload's {@link knownModels}); series
   * already made stay. Each reload can add at most its config's names: still bounded.
   */
  knowModels(models: ReadonlySet<string>): void;
}
