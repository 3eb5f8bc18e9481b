import type { LlmCacheHint } from './content.js';
import type { ProtocolId } from './protocol.js';
import type { LlmRequest } from './request.js';
import { type CodecContext, reportLoss } from './warnings.js';

/**
 * The wire form of a cache breakpoint, `{"type":"ephemeral"}` or with `"ttl":"5m"|"1h"`: Claude's
 * `cache_control`, which Chat clients also put on content parts and tools (the OpenRouter /
 * LiteLLM convention). Any other shape has no canonical meaning: `undefined`, and the caller keeps
 * the raw value in its extension bag.
 */
export function cacheHintFromWire(value: unknown): LlmCacheHint | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const wire = value as Record<string, unknown>;
  if (wire.type !== 'ephemeral') return undefined;
  let keys = 0;
  for (const _ in wire) keys++;
  if (keys === 1) return {};
  if (keys === 2 && (wire.ttl === '5m' || wire.ttl === '1h')) return { ttl: wire.ttl };
  return undefined;
}

/** A canonical hint in its wire form (see {@link cacheHintFromWire}). */
export function cacheHintToWire(cache: LlmCacheHint): { type: 'ephemeral'; ttl?: '5m' | '1h' } {
  return cache.ttl ? { type: 'ephemeral', ttl: cache.ttl } : { type: 'ephemeral' };
}

/**
 * For targets without cache breakpoints: every hint on a message part, a function tool or the
 * request is reported (`dropped-field` at its canonical path, `message`) instead of vanishing.
 * `kept` skips hints the codec writes back itself (its own client's wire field). One property
 * check per part and tool; nothing allocated unless a hint is set.
 */
export function reportCacheHints(
  request: LlmRequest,
  context: CodecContext | undefined,
  protocol: ProtocolId,
  message: string,
  kept?: (target: object) => boolean,
): void {
  // Paths are built only for a hint that is reported: this runs over every part of every request,
  // so the loop reads `cache` itself and calls out only for a part that has one.
  const messages = request.messages;
  for (let index = 0; index < messages.length; index++) {
    const content = messages[index]!.content;
    for (let at = 0; at < content.length; at++) {
      const part = content[at]!;
      if (part.cache && !kept?.(part)) reportCacheHint(context, `messages[${index}].content[${at}].cache`, message, protocol);
    }
  }
  const tools = request.tools;
  if (tools) {
    // Only function tools carry a hint (Claude `cache_control` on a tool definition).
    for (let index = 0; index < tools.length; index++) {
      const tool = tools[index]!;
      if (tool.type === 'function' && tool.cache && !kept?.(tool)) reportCacheHint(context, `tools[${index}].cache`, message, protocol);
    }
  }
  if (request.cache && !kept?.(request)) reportCacheHint(context, 'cache', message, protocol);
}

function reportCacheHint(context: CodecContext | undefined, path: string, message: string, protocol: ProtocolId): void {
  reportLoss(context, { code: 'dropped-field', path, message, protocol });
}
