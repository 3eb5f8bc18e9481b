import type { LlmCacheHint } from '@llm/core';
import type { ConverseCachePoint } from './wire-types.js';

/**
 * A `cachePoint` block -> the canonical hint on the part (or tool) before it: `{type:"default"}`
 * with an optional `ttl`. Another shape (fields we do not know) gives `undefined`, and the block
 * is then kept whole.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CachePointBlock.html
 */
export function cacheHintFromPoint(value: unknown): LlmCacheHint | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const wire = value as Record<string, unknown>;
  if (wire.type !== 'default') return undefined;
  let keys = 0;
  for (const _ in wire) keys++;
  if (keys === 1) return {};
  if (keys === 2 && (wire.ttl === '5m' || wire.ttl === '1h')) return { ttl: wire.ttl };
  return undefined;
}

/** The `cachePoint` block that follows a part (or tool) with a cache hint. */
export function cachePointBlock(cache: LlmCacheHint): { cachePoint: ConverseCachePoint } {
  return { cachePoint: cache.ttl ? { type: 'default', ttl: cache.ttl } : { type: 'default' } };
}
