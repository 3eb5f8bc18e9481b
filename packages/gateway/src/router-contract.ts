import type { LlmUsage, LlmWarning, ProtocolId } from '@llm/core';

/**
 * Local mirror of the parts of @llm/router's public config (packages/router/src/config.ts) the
 * gateway uses, until the router's index exports them. Structurally identical field for field;
 * replace these with `import type { ... } from '@llm/router'` once available.
 */

/** @see RouterConfig['upstreams'][string] in @llm/router */
export interface UpstreamConfig {
  protocol: ProtocolId;
  baseUrl: string;
  apiKey?: string;
  auth?: 'bearer' | 'x-api-key' | 'x-goog-api-key' | 'query-key' | 'none';
  headers?: Record<string, string>;
  capabilities?: Partial<Record<'images' | 'tools' | 'streaming' | 'reasoning' | 'citations', boolean>>;
  timeoutMs?: number;
}

/** @see RequestRecord in @llm/router: one finished request (the ledger row). */
export interface RequestRecord {
  requestId: string;
  clientProtocol: ProtocolId;
  upstream?: string;
  upstreamProtocol?: ProtocolId;
  clientModel?: string;
  upstreamModel?: string;
  status: number;
  stream: boolean;
  usage?: LlmUsage;
  firstByteMs?: number;
  totalMs: number;
  errorKind?: string;
  warnings: LlmWarning[];
}

/** @see Transport in @llm/router */
export type Transport = (request: Request) => Promise<Response>;

/** @see RouterConfig in @llm/router (the subset the gateway fills in). */
export interface RouterConfig {
  upstreams: Record<string, UpstreamConfig>;
  routes: { match: string; upstream: string | string[]; model?: string }[];
  policies?: Record<string, unknown>;
  strict?: boolean;
  transport?: Transport;
  maxRetries?: number;
  warningsHeader?: boolean;
  hooks?: { onWarning?(warning: LlmWarning, requestId: string): void; onRequestEnd?(record: RequestRecord): void };
}
