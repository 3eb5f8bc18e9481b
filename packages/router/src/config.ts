import type { AdmitDenial, AdmitInfo } from './admission.js';
import type { RoutingState } from './balancing/routing-state.js';
import type { CircuitBreakerConfig } from './circuit/circuit-breaker.js';
import type { RequestDiagnostics } from './diagnostics.js';
import type { MediaFetchConfig } from './media-fetch.js';
import type { McpCallRecord, McpConfig } from './mcp/mcp-host.js';
import type { AuthScheme, CancelSignal, Codec, HeaderReader, LlmRequest, LlmResponse, LlmUsage, LlmWarning, ProtocolId } from '@llm/core';

/**
 * The public configuration of `createHandler` and `complete`. The gateway builds it from its
 * config file; library users write it directly. Names here are a contract with @llm/gateway.
 */

/** An upstream provider endpoint. */
export interface UpstreamConfig {
  /** Protocol the upstream speaks. */
  protocol: ProtocolId;
  /**
   * Base URL in the official SDK's convention: OpenAI protocols include `/v1`
   * (`https://api.openai.com/v1`); Anthropic and Gemini do not (`https://api.anthropic.com`,
   * `https://generativelanguage.googleapis.com`).
   */
  baseUrl: string;
  /** Key sent upstream. Client credentials are never forwarded. */
  apiKey?: string;
  /** Several keys, used in turn (round-robin), one per call; takes the place of `apiKey`. */
  apiKeys?: string[];
  /** How the key is sent; defaults to the protocol's usual scheme. `none` sends no key. */
  auth?: AuthScheme | 'none';
  /** Extra headers sent upstream (e.g. `anthropic-beta`, `OpenAI-Organization`). */
  headers?: Record<string, string>;
  /** Capabilities the upstream lacks; requests needing them fail before sending. */
  capabilities?: Partial<UpstreamCapabilities>;
  /** Per-request timeout in milliseconds (until the response headers). Default 600000. */
  timeoutMs?: number;
  /**
   * Longest silence in milliseconds between two chunks of a streamed answer (default 120000):
   * past it the upstream call is cancelled and the client's stream ends with its protocol's error
   * event (kind `timeout`).
   */
  streamIdleTimeoutMs?: number;
  /**
   * Encode every function tool and JSON response schema in the strict form (OpenAI strict mode:
   * objects closed, every property required, optional ones nullable), for an upstream that
   * enforces them. Also on, per request, when the client sent a `strict: true` function tool and
   * the upstream's codec declares strict schemas (`traits.strictSchemas`). Set, it turns off the
   * same-protocol pass-through so the schemas are rewritten.
   */
  strictTools?: boolean;
  /**
   * False when this upstream cannot run remote MCP servers although its protocol can
   * (`Codec.traits.hostedMcp`): Claude on Bedrock or Vertex, which lack Anthropic's MCP
   * connector. The router then runs the request's MCP servers itself (`RouterConfig.mcp`).
   */
  hostsMcp?: boolean;
}

/** What an upstream can do (all true unless configured otherwise). */
export interface UpstreamCapabilities {
  images: boolean;
  tools: boolean;
  streaming: boolean;
  reasoning: boolean;
  citations: boolean;
}

/** One upstream of a route, with the model it gets and its share of a balanced route. */
export interface RouteTarget {
  /** Upstream name (a key of `upstreams`). */
  name: string;
  /** Model name to send this upstream (default: the route's `model`, else the client's). */
  model?: string;
  /** Share of the `weighted` strategy (default 1); any weight makes the route balanced. */
  weight?: number;
}

/** How a balanced route picks among its upstreams per request (see the README, "Routing"). */
export type BalancingStrategy = 'weighted' | 'round-robin' | 'least-busy' | 'lowest-latency';

/** One route: client model names matching `match` go to `upstream`. */
export interface RouteRule {
  /** Exact name or glob (`*` any run of characters, `?` one character): `claude-*`, `*`. */
  match: string;
  /**
   * Upstream name, or several: the next is tried when one fails before its first byte. Entries
   * may be objects naming each upstream's model and weight.
   */
  upstream: string | RouteTarget | (string | RouteTarget)[];
  /** Model name to send upstream instead of the client's. */
  model?: string;
  /**
   * Balance the upstreams per request instead of trying them in the order written (the default
   * when any entry has a `weight`: `weighted`). The others stay fallbacks, in the strategy's order.
   */
  strategy?: BalancingStrategy;
  /** A model name routed again when an upstream answers that the request is too long for its context window. */
  contextFallback?: string;
  /** A model name routed again when an upstream refuses the request by its content policy. */
  contentPolicyFallback?: string;
  /** Names of `RouterConfig.mcp.servers` whose tools every request of this route gets, run by the router. */
  mcpServers?: string[];
  /**
   * `run: 'gateway'`: the router runs the request's own MCP tools even for an upstream that could
   * host them (its network, its allowlist, its log), as it does for upstreams that cannot.
   */
  mcp?: { run: 'gateway' };
}

/** One finished request, reported through {@link RouterHooks.onRequestEnd} (the gateway's ledger row). */
export interface RequestRecord {
  /** Request id (also returned to the client in `x-request-id`). */
  requestId: string;
  /** The caller's id of the client credential (`RouterRequest.clientKeyId`), when it named one. */
  clientKeyId?: string;
  clientProtocol: ProtocolId;
  /** Name of the upstream that answered (the last one tried). */
  upstream?: string;
  /** Upstreams tried and left before `upstream` (fallbacks and reroutes; 0: the first answered). */
  fallbacks?: number;
  /**
   * Upstream API calls made for the request: retries and fallbacks included, media downloads not
   * (0: none was made, as for a request refused before its first upstream call). The router sets
   * it on every record; optional for records made elsewhere (a gateway's own 401s).
   */
  attempts?: number;
  /**
   * Calls resent to the same upstream after a 429, 408, 5xx or network error (the router's
   * retries, `RouterConfig.maxRetries`), one entry per upstream in the order first retried; absent
   * when none. Moving to another upstream is a fallback, not a retry.
   */
  retries?: UpstreamRetries[];
  upstreamProtocol?: ProtocolId;
  clientModel?: string;
  upstreamModel?: string;
  /** HTTP status returned to the client. */
  status: number;
  stream: boolean;
  usage?: LlmUsage;
  /** Route rule, upstream calls and tool traffic, when `RouterConfig.diagnostics` is on. */
  diagnostics?: RequestDiagnostics;
  /** True when `usage` is the router's estimate (`policies.estimateStreamUsage`), not the upstream's report. */
  usageEstimated?: boolean;
  /** Milliseconds from receiving the request to the first byte sent to the client. */
  firstByteMs?: number;
  /** Milliseconds from receiving the request to the end of the answer. */
  totalMs: number;
  /** Error kind when the request failed. */
  errorKind?: string;
  /**
   * The internal detail of a failure (an exception's message and causes, an upstream's address,
   * why its answer did not decode, which upstream it was), for the log only: clients get a
   * generic message with the request id.
   */
  errorDetail?: string;
  /** The first `RouterConfig.maxWarningsPerRequest` translation warnings. */
  warnings: LlmWarning[];
  /** How many warnings came beyond those kept in `warnings` (absent when none). */
  warningsDropped?: number;
  /** Every MCP tool call the router ran for this request (see `RouterConfig.mcp`), in the order they ended. */
  mcpCalls?: McpCallRecord[];
}

/** The retries of one upstream within a request (see {@link RequestRecord.retries}). */
export interface UpstreamRetries {
  upstream: string;
  /** Calls beyond the first of each attempt on this upstream. */
  count: number;
}

/** Observability hooks; none may throw or slow the request (errors are swallowed). */
export interface RouterHooks {
  /** Each kept translation warning, as it happens (at most `maxWarningsPerRequest` per request). */
  onWarning?(warning: LlmWarning, requestId: string): void;
  /** Once per request, after the last byte (or the failure). */
  onRequestEnd?(record: RequestRecord): void;
  /**
   * Before a generate call's first upstream call, once its model and route are known: a denial
   * is answered in the client's protocol (see admission.ts) and no upstream is called. Unlike the
   * hooks above, what it throws fails the request. Every admitted call ends in `onRequestEnd`.
   */
  admit?(info: AdmitInfo): Promise<AdmitDenial | undefined>;
}

/**
 * One upstream HTTP call as the router hands it to a transport: plain data, so a transport built
 * on a lower-level client (the gateway's undici pool) pays for no `Request` object.
 */
export interface UpstreamRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /**
   * The body: bytes (UTF-8 JSON) for generate calls, so one copy of a large request is kept for
   * retries and none on the JS heap; text for the router's smaller calls.
   */
  body?: string | Uint8Array<ArrayBuffer>;
  /**
   * The id of the client request this call serves (`RouterRequest.requestId`, else the one the
   * router minted), on upstream API calls: a transport labels its logs and spans with it instead
   * of tracking the request through async context. Absent on media downloads.
   */
  requestId?: string;
  /**
   * `manual` on media downloads: the transport must return a 3xx answer as it is, never follow
   * it; the router checks each hop against the allowlist. (`fetch` takes the field as it is.)
   */
  redirect?: 'manual';
  /**
   * `media` on media downloads (see `RouterConfig.fetchMedia`), absent on upstream API calls. The
   * router checks a download's URL text against the allowlist but cannot see what a name resolves
   * to (Web-standard APIs only): a transport that can should refuse a media download whose
   * resolved address is internal (loopback, private, link-local...: the router's
   * `isInternalHost`) unless {@link internalAllowed} is set, checking the address it connects to.
   * Upstream API calls are never restricted: upstreams on loopback or a private network are normal.
   */
  purpose?: 'media';
  /**
   * On media downloads: true when an allow entry names this URL's host exactly (a URL entry with
   * its origin, or a host entry; never a `*.` pattern), which is what lets a download reach an
   * internal address.
   */
  internalAllowed?: boolean;
  /** Aborts the call (client disconnect, timeout). */
  signal?: AbortSignal;
  /**
   * The same cancellation as a plain {@link CancelSignal}, when the router has one: a transport
   * whose client takes it (undici's does) should read this and leave `signal` alone, which is then
   * never built (an `AbortSignal` per upstream call costs more than the call's other bookkeeping).
   */
  cancel?: CancelSignal;
}

/**
 * An upstream's answer as the router reads it. A WHATWG `Response` is one; a transport may
 * return a lighter object (a body read whole, headers as its own map). The router reads the body
 * once, through one of `body`, `text()` or `json()`.
 */
export interface UpstreamResponse {
  readonly status: number;
  readonly headers: HeaderReader;
  readonly body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
  /**
   * The body as an async iterable of chunks, when the transport has one cheaper than a Web
   * stream (a Node `Readable` is one); `return()` must cancel the call. Streams use it if present.
   */
  chunks?(): AsyncIterable<Uint8Array>;
}

/** Sends an upstream call; the default is global `fetch` (`(r) => fetch(r.url, r)`). */
export type Transport = (request: UpstreamRequest) => Promise<UpstreamResponse>;

/** Stores state a client cannot carry (Responses `previous_response_id`, opaque provider state). */
export interface StateStore {
  get(key: string): Promise<unknown | undefined>;
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  /**
   * Removes a key. Optional; without it `RouterConfig.maxStoredTurnsPerOwner` cannot be enforced
   * and only the store's own limits apply.
   */
  delete?(key: string): Promise<void>;
}

/**
 * Opt-in request/response middlewares over the canonical model (all off by default). Each is
 * documented in the router README.
 */
export interface PolicyConfig {
  /** Accept a message `content` written as `{text}`, `{content: string}` or `{content: [blocks]}` (else 400). */
  lenientContent?: boolean;
  stripSystemReminders?: boolean;
  /** Join the text blocks of a system message with this separator (`true`: a blank line) instead of gluing them. */
  joinSystemText?: boolean | string;
  toolChoiceNoneAfterToolResults?: boolean;
  /** `true`: drop an immediate repeat; `answered`: also drop any user text already answered. */
  dedupeHistoryReplay?: boolean | 'answered';
  /** Drop plain user text sent in the same turn as tool results (it may be a new instruction: off by default). */
  dropTextBesideToolResults?: boolean;
  /** `true`: instruct after a repeated call; `up-front`: also in the system prompt of every request with tools. */
  loopGuard?: boolean | 'up-front';
  readOnlyTools?: ReadOnlyToolsConfig | false;
  contextStrategy?: 'minimal' | 'full' | 'tool' | 'adaptive';
  /**
   * A translated stream whose upstream reported no usage gets an estimate (input from the upstream
   * body's size, output from the streamed text) instead of zeros; the record says `usageEstimated`.
   */
  estimateStreamUsage?: boolean;
}

/** The read-only intent policy: which tools stay, and the words that decide (defaults in the README). */
export interface ReadOnlyToolsConfig {
  allow: string[];
  /** Words marking a read-only request (default `DEFAULT_READ_WORDS`). */
  readWords?: string[];
  /** Words marking a change, which win over read words (default `DEFAULT_WRITE_WORDS`). */
  writeWords?: string[];
}

/** Everything `createHandler` needs. */
export interface RouterConfig {
  upstreams: Record<string, UpstreamConfig>;
  routes: RouteRule[];
  policies?: PolicyConfig;
  /** Turn translation losses into `unsupported` errors instead of warnings. */
  strict?: boolean;
  /** Upstream HTTP client (default: global fetch). */
  transport?: Transport;
  /** State store (default: in-memory, bounded). */
  stateStore?: StateStore;
  /**
   * Most continuation entries (`previous_response_id` turns and `owner:<id>` records) kept per
   * `clientKeyId` (default 1000): past it that owner's oldest is deleted, so one key's many
   * requests cannot push every other key's state out of the store. Needs a store with `delete`;
   * counts entries, not bytes; no cap without a `clientKeyId`. See the README.
   */
  maxStoredTurnsPerOwner?: number;
  /**
   * Shared routing state: circuits, in-flight counts, latencies, round-robin turns (default: one
   * per router, in memory). Pass one to keep it across routers, or one with a channel to share it
   * between instances.
   */
  routingState?: RoutingState;
  /**
   * Cool-down of failing upstreams (defaults in the README, "Circuit breaking"); `false`: never
   * skip an upstream. Read from here when the router builds its own `routingState`.
   */
  circuitBreaker?: CircuitBreakerConfig | false;
  /** Retries on 429 / 5xx before the first byte (default 2), with backoff honouring retry-after. */
  maxRetries?: number;
  /** First retry delay in milliseconds, doubled per retry (default 500). */
  retryBaseDelayMs?: number;
  /** Longest wait honoured from a `retry-after` (default 30000). */
  maxRetryDelayMs?: number;
  /** Codecs by protocol (default: the four codec packages). */
  codecs?: Partial<Record<ProtocolId, Codec>>;
  /**
   * Download media URLs the target cannot take (Gemini images and files, Chat files) and send them
   * inline. Off by default: without it no URL is ever fetched; with it only allowlisted URLs, up
   * to a size limit. Downloads use `transport`.
   */
  fetchMedia?: MediaFetchConfig;
  /**
   * Count-tokens calls: `estimate` (default) answers locally with a deliberate over-estimate;
   * `upstream` asks the routed upstream's count endpoint when it speaks the client's protocol,
   * falling back to the estimate on any failure.
   */
  countTokens?: 'estimate' | 'upstream';
  /**
   * The model ids `GET /v1/models` (and Anthropic's and Gemini's lists) name, in order; default:
   * the route table's exact `match` names (globs name no model).
   */
  models?: readonly string[];
  /**
   * Return warnings to the client in an `x-llm-warnings` header (default false): `code@path`
   * items, non-ASCII bytes percent-encoded, at most 4096 bytes, then `+N more`.
   */
  warningsHeader?: boolean;
  /** Warnings kept per request (default 100); more are counted in `RequestRecord.warningsDropped`. */
  maxWarningsPerRequest?: number;
  /**
   * Total time a request may take in milliseconds, across retries, fallbacks and the whole
   * stream (default 1800000). A request not yet answered then gets 504 (`timeout`) in the
   * client's protocol; a running stream ends with the protocol's error event.
   */
  requestDeadlineMs?: number;
  hooks?: RouterHooks;
  /**
   * Run remote MCP servers for upstreams that cannot (`Codec.traits.hostedMcp` false): the
   * request's MCP tools and the route's `mcpServers` are listed, offered as functions, called and
   * fed back until the model answers (see the README, "MCP"). Without it MCP tools reach such
   * upstreams' encoders, which drop them with a warning.
   */
  mcp?: McpConfig;
  /**
   * Collect `RequestRecord.diagnostics` for a debug log line (default false): the route rule,
   * upstream status and calls, tool-call and tool-result previews (capped, secrets masked). Costs
   * a decoded request and answer even between same-protocol ends, so leave it off in production.
   */
  diagnostics?: boolean;
  /** Hook points for custom canonical rewrites, run after the built-in policies. */
  transformRequest?(request: LlmRequest, context: { clientProtocol: ProtocolId; upstream: string }): LlmRequest;
  transformResponse?(response: LlmResponse, context: { clientProtocol: ProtocolId; upstream: string }): LlmResponse;
}
