import type { LlmUsage, LlmWarning } from '@llm/core';
import type { RequestCost } from '../pricing/index.js';
import type { RequestRecord } from '../router-contract.js';

/**
 * Requests `GET /admin/requests` can show, per gateway process, by default: the newest 200. A ring
 * in memory rather than the ledger because the ledger keeps neither warnings nor the kind of
 * error per request, may be off, and a dashboard's "what just happened" should not query a file
 * or database on every refresh. 200 summaries are about 100 KB.
 */
export const DEFAULT_RECENT_REQUESTS = 200;

/** One finished request as the dashboard shows it: the record without its internal error detail or diagnostics. */
export interface RecentRequest {
  /** When it ended, ISO 8601. */
  time: string;
  requestId: string;
  keyId?: string;
  clientProtocol: string;
  clientModel?: string;
  upstream?: string;
  upstreamProtocol?: string;
  upstreamModel?: string;
  fallbacks?: number;
  status: number;
  stream: boolean;
  /** Token counts (the provider's raw usage object left out). */
  usage?: RecentUsage;
  usageEstimated?: boolean;
  /** What it cost in USD, by the running config's prices (absent: no usage, or unpriced). */
  costUsd?: number;
  /** True when its model has no price: its cost is unknown, never counted as 0. */
  unpriced?: true;
  firstByteMs?: number;
  totalMs: number;
  errorKind?: string;
  warnings: LlmWarning[];
  warningsDropped?: number;
}

/** The token counts of a request's usage. */
export type RecentUsage = Pick<LlmUsage, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'reasoningTokens'>;

function countsOf(usage: LlmUsage): RecentUsage {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    ...(usage.cacheReadTokens !== undefined && { cacheReadTokens: usage.cacheReadTokens }),
    ...(usage.cacheWriteTokens !== undefined && { cacheWriteTokens: usage.cacheWriteTokens }),
    ...(usage.reasoningTokens !== undefined && { reasoningTokens: usage.reasoningTokens }),
  };
}

/**
 * The newest finished requests of this process, newest first, at most `capacity`. Adding is one
 * small object and an array slot, off the client's path (the router calls it after the last byte).
 * `errorDetail` is left out: it may name internal addresses, and the log has it under the request id.
 */
export class RecentRequests {
  private readonly ring: (RecentRequest | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity = DEFAULT_RECENT_REQUESTS) {
    this.ring = new Array(capacity);
  }

  add(record: RequestRecord, cost?: RequestCost, time = Date.now()): void {
    if (this.capacity === 0) return;
    this.ring[this.next] = summarize(record, cost, time);
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** The newest `limit` requests (default all kept), newest first. */
  newest(limit = this.capacity): RecentRequest[] {
    const out: RecentRequest[] = [];
    for (let i = 1; i <= Math.min(limit, this.count); i++) out.push(this.ring[(this.next - i + this.capacity) % this.capacity]!);
    return out;
  }
}

function summarize(record: RequestRecord, cost: RequestCost | undefined, time: number): RecentRequest {
  return {
    time: new Date(time).toISOString(),
    requestId: record.requestId,
    ...(record.clientKeyId !== undefined && { keyId: record.clientKeyId }),
    clientProtocol: record.clientProtocol,
    ...(record.clientModel !== undefined && { clientModel: record.clientModel }),
    ...(record.upstream !== undefined && { upstream: record.upstream }),
    ...(record.upstreamProtocol !== undefined && { upstreamProtocol: record.upstreamProtocol }),
    ...(record.upstreamModel !== undefined && { upstreamModel: record.upstreamModel }),
    ...(record.fallbacks !== undefined && { fallbacks: record.fallbacks }),
    status: record.status,
    stream: record.stream,
    ...(record.usage !== undefined && { usage: countsOf(record.usage) }),
    ...(record.usageEstimated && { usageEstimated: true }),
    ...(cost && ('usd' in cost ? { costUsd: cost.usd } : { unpriced: true })),
    ...(record.firstByteMs !== undefined && { firstByteMs: Math.round(record.firstByteMs * 10) / 10 }),
    totalMs: Math.round(record.totalMs * 10) / 10,
    ...(record.errorKind !== undefined && { errorKind: record.errorKind }),
    warnings: record.warnings,
    ...(record.warningsDropped !== undefined && { warningsDropped: record.warningsDropped }),
  };
}
