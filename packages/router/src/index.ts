// @llm/router: any client protocol to any upstream protocol, with routing, policies and the
// upstream call.

export { bridge } from './bridge.js';
export type { Bridge, BridgeOptions, BridgeRequestOptions, BridgeStreamOptions, BridgedRequest } from './bridge.js';
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
export type { ModelFamilyUpstreams, ResolvedRoute } from './routing.js';
export { MemoryStateStore } from './state-store.js';
export type { MemoryStateStoreOptions } from './state-store.js';
export { checkCapabilities } from './capabilities.js';
export { LOOP_GUARD_INSTRUCTION, applyPolicies } from './policies.js';
export { DEFAULT_MAX_OUTPUT_TOKENS, fixRequestForTarget, mergeSameRoleTurns, orderToolResults } from './request-fixes.js';
export { fixToolCallFinish, fixToolCallFinishStream } from './response-fixes.js';
export { sealContent, sealResponse, sealStream } from './seal-state.js';
export { openRequestState } from './open-state.js';
export { estimateTokens } from './endpoints.js';
export { MAX_MEDIA_REDIRECTS, fetchMediaUrls, inlineFetchedMedia, isAllowedMediaUrl, mediaUrlsToFetch } from './media-fetch.js';
export type { FetchedMedia, MediaFetchConfig, MediaToFetch } from './media-fetch.js';
export { isInternalHost } from './internal-hosts.js';
export type {
  PolicyConfig,
  RequestRecord,
  RouteRule,
  RouterConfig,
  RouterHooks,
  StateStore,
  Transport,
  UpstreamRequest,
  UpstreamResponse,
  UpstreamCapabilities,
  UpstreamConfig,
} from './config.js';
