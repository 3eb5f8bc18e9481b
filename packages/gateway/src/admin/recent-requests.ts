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
  /** Upstream API calls it made, retries and fallbacks included. */
  attempts?: number;
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
  const counts: RecentUsage = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
  if (usage.cacheReadTokens !== undefined) counts.cacheReadTokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) counts.cacheWriteTokens = usage.cacheWriteTokens;
  if (usage.reasoningTokens !== undefined) counts.reasoningTokens = usage.reasoningTokens;
  return counts;
}

/** A kept request: its summary, and when it ended (written as text only when read). */
interface Kept {
  endedAt: number;
  summary: Omit<RecentRequest, 'time'>;
}

/**
 * The newest finished requests of this process, newest first, at most `capacity`. Adding is one
 * small object and an array slot, off the client's path (the router calls it after the last byte);
 * the time is formatted when the dashboard reads it, not per request.
 * `errorDetail` is left out: it may name internal addresses, and the log has it under the request id.
 */
export class RecentRequests {
  private readonly ring: (Kept | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity = DEFAULT_RECENT_REQUESTS) {
    this.ring = new Array(capacity);
  }

  add(record: RequestRecord, cost?: RequestCost, time = Date.now()): void {
    if (this.capacity === 0) return;
    this.ring[this.next] = { endedAt: time, summary: summarize(record, cost) };
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** The newest `limit` requests (default all kept), newest first. */
  newest(limit = this.capacity): RecentRequest[] {
    const out: RecentRequest[] = [];
    for (let i = 1; i <= Math.min(limit, this.count); i++) {
      const { endedAt, summary } = this.ring[(this.next - i + this.capacity) % this.capacity]!;
      out.push({ time: new Date(endedAt).toISOString(), ...summary });
    }
    return out;
  }
}

/** The record's fields the dashboard shows, in its order (plain assignments: this runs per request). */
function summarize(record: RequestRecord, cost: RequestCost | undefined): Omit<RecentRequest, 'time'> {
  const summary: Partial<RecentRequest> = { requestId: record.requestId };
  if (record.clientKeyId !== undefined) summary.keyId = record.clientKeyId;
  summary.clientProtocol = record.clientProtocol;
  if (record.clientModel !== undefined) summary.clientModel = record.clientModel;
  if (record.upstream !== undefined) summary.upstream = record.upstream;
  if (record.upstreamProtocol !== undefined) summary.upstreamProtocol = record.upstreamProtocol;
  if (record.upstreamModel !== undefined) summary.upstreamModel = record.upstreamModel;
  if (record.fallbacks !== undefined) summary.fallbacks = record.fallbacks;
  if (record.attempts !== undefined) summary.attempts = record.attempts;
  summary.status = record.status;
  summary.stream = record.stream;
  if (record.usage !== undefined) summary.usage = countsOf(record.usage);
  if (record.usageEstimated) summary.usageEstimated = true;
  if (cost) {
    if ('usd' in cost) summary.costUsd = cost.usd;
    else summary.unpriced = true;
  }
  if (record.firstByteMs !== undefined) summary.firstByteMs = Math.round(record.firstByteMs * 10) / 10;
  summary.totalMs = Math.round(record.totalMs * 10) / 10;
  if (record.errorKind !== undefined) summary.errorKind = record.errorKind;
  summary.warnings = record.warnings;
  if (record.warningsDropped !== undefined) summary.warningsDropped = record.warningsDropped;
  return summary as Omit<RecentRequest, 'time'>;
}
