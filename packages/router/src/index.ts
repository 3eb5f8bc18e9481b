// @llm/router: any client protocol to any upstream protocol, with routing, policies and the
// upstream call.

export { bridge } from './bridge.js';
export type { Bridge, BridgeAnswers, BridgeExchange, BridgeOptions, BridgeRequestOptions, BridgeStreamOptions, BridgedRequest } from './bridge.js';
export { createHandler, createRouter } from './handler.js';
export type { FetchHandler } from './handler.js';
export { toResponse } from './reply.js';
export type { ReplyHandler, RouterReply, RouterRequest } from './reply.js';
export type { CancelSignal } from '@llm/core';
export { complete } from './complete.js';
export type { CompleteOptions, CompleteStream, CompleteValue } from './complete.js';
export { defaultCodecs } from './registry.js';
export type { CodecRegistry } from './registry.js';
export { matchesGlob, modelFamilyPreset, resolveRoute } from './routing.js';
export type { ModelFamilyUpstreams, ResolvedRoute, ResolvedTarget } from './routing.js';
export { DEFAULT_LATENCY_DECAY, DEFAULT_LATENCY_SHARE_INTERVAL_MS, RoutingState } from './balancing/routing-state.js';
export type { RoutingEvent, RoutingEventChannel, RoutingStateOptions } from './balancing/routing-state.js';
export { CircuitBreakers, DEFAULT_CIRCUIT_BREAKER } from './circuit/circuit-breaker.js';
export type { CircuitBreakerConfig, CircuitSnapshot, CircuitState } from './circuit/circuit-breaker.js';
export { DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_RETRY_BASE_DELAY_MS } from './upstream-call.js';
export { DEFAULT_STATE_STORE_MAX_BYTES, DEFAULT_STATE_STORE_MAX_ENTRIES, MemoryStateStore } from './state-store.js';
export { estimateValueSize } from './value-size.js';
export { DEFAULT_MAX_STORED_TURNS_PER_OWNER } from './owner-quota.js';
export { DEFAULT_REQUEST_DEADLINE_MS, DEFAULT_STREAM_IDLE_TIMEOUT_MS } from './timeouts.js';
export { DEFAULT_MAX_WARNINGS_PER_REQUEST, MAX_WARNINGS_HEADER_BYTES, warningsHeaderValue } from './warnings.js';
export type { MemoryStateStoreOptions } from './state-store.js';
export { checkCapabilities } from './capabilities.js';
export { DIAGNOSTIC_PREVIEW_CHARS, diagnosticPreview } from './diagnostics.js';
export type { RequestDiagnostics } from './diagnostics.js';
export {
  DEFAULT_READ_WORDS,
  DEFAULT_WRITE_WORDS,
  LOOP_GUARD_INSTRUCTION,
  UP_FRONT_LOOP_GUARD_INSTRUCTION,
  applyPolicies,
  normaliseMessageContent,
} from './policies.js';
export { answerEveryCall, fixRequestForTarget, mergeSameRoleTurns, NO_RESULT_OUTPUT, orderToolResults } from './request-fixes.js';
export { fixToolCallFinish, fixToolCallFinishStream } from './response-fixes.js';
export { sealContent, sealResponse, sealStream } from './seal-state.js';
export { openRequestState } from './open-state.js';
export { estimateTokens } from './endpoints.js';
export { MAX_MEDIA_REDIRECTS, fetchMediaUrls, inlineFetchedMedia, isAllowedMediaUrl, mediaUrlsToFetch } from './media-fetch.js';
export type { FetchedMedia, MediaFetchConfig, MediaToFetch } from './media-fetch.js';
export { isInternalHost } from './internal-hosts.js';
export { DEFAULT_MCP_MAX_TURNS, DEFAULT_MCP_TIME_BUDGET_MS, MAX_MCP_CALLS_PER_TURN, MAX_MCP_SERVERS_PER_REQUEST } from './mcp/mcp-host.js';
export type { McpCallContext, McpCallRecord, McpConfig, McpHost, McpToolOutput } from './mcp/mcp-host.js';
export { DENIED_OUTPUT, UNAVAILABLE_OUTPUT } from './mcp/mcp-loop.js';
export { NOT_AN_OBJECT_OUTPUT, TOO_MANY_CALLS_OUTPUT } from './mcp/mcp-calls.js';
export { MAX_FUNCTION_NAME_LENGTH, baseFunctionName as mcpFunctionName } from './mcp/mcp-names.js';
export { denialError } from './admission.js';
export type { AdmitDenial, AdmitInfo } from './admission.js';
export type {
  BalancingStrategy,
  PolicyConfig,
  ReadOnlyToolsConfig,
  RequestRecord,
  RouteRule,
  RouteTarget,
  RouterConfig,
  RouterHooks,
  StateStore,
  Transport,
  UpstreamRequest,
  UpstreamResponse,
  UpstreamCapabilities,
  UpstreamConfig,
  UpstreamRetries,
} from './config.js';
