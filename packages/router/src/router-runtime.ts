import { RoutingState } from './balancing/routing-state.js';
import type { RouterConfig, StateStore, Transport, UpstreamRequest } from './config.js';
import { DEFAULT_MAX_STORED_TURNS_PER_OWNER, OwnerQuota } from './owner-quota.js';
import { defaultCodecs, type CodecRegistry } from './registry.js';
import { unknownRouteServers } from './mcp/mcp-toolset.js';
import { CallRecorder } from './request-record.js';
import { ownerOfStored } from './response-state.js';
import { MemoryStateStore } from './state-store.js';

/** What a router's steps share for its lifetime: its configuration with the defaults filled in. */
export interface RouterRuntime {
  readonly config: RouterConfig;
  readonly codecs: CodecRegistry;
  readonly store: StateStore;
  readonly quota: OwnerQuota;
  readonly transport: Transport;
  readonly calls: CallRecorder;
  /** Circuits, in-flight counts, latencies and turns: the config's, else this router's own. */
  readonly routing: RoutingState;
}

/** Built once per `createRouter`. */
export function routerRuntime(config: RouterConfig): RouterRuntime {
  const missing = unknownRouteServers(config);
  if (missing.length > 0) throw new Error(`routes name MCP servers missing from mcp.servers: ${missing.join(', ')}`);
  const store = config.stateStore ?? new MemoryStateStore();
  return {
    config,
    codecs: config.codecs ?? defaultCodecs(),
    store,
    quota: new OwnerQuota(store, config.maxStoredTurnsPerOwner ?? DEFAULT_MAX_STORED_TURNS_PER_OWNER, ownerOfStored),
    transport: config.transport ?? ((request: UpstreamRequest) => fetch(request.url, request)),
    calls: new CallRecorder(config),
    routing: config.routingState ?? new RoutingState({ circuitBreaker: config.circuitBreaker || undefined }),
  };
}
