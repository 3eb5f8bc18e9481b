import type { CodecContext } from '@llm/core';
import { joinPath, reportLoss } from '@llm/core';
import { PROTOCOL } from './protocol.js';

/** Anthropic rejects a request with more `cache_control` blocks than this (top-level automatic caching aside). */
export const MAX_CACHE_BREAKPOINTS = 4;

type Wire = Record<string, unknown>;

/**
 * Keeps the first {@link MAX_CACHE_BREAKPOINTS} block breakpoints of an encoded body, in the
 * order Anthropic builds the prompt prefix (tools, system, messages, tool_result contents), and
 * removes later ones with a `dropped-field` warning each: a client translated from another
 * protocol (Chat parts with `cache_control`) may mark more blocks than Claude accepts, which
 * would otherwise be a 400. The first ones are kept because they stay put as a conversation
 * grows, so their cached prefixes keep being hit. Walks blocks only, not their text.
 */
export function limitCacheBreakpoints(body: Wire, context: CodecContext | undefined): void {
  let seen = 0;
  // Paths are only built for a removed breakpoint: this runs on every request.
  const visitAll = (blocks: unknown, path: () => string): void => {
    if (!Array.isArray(blocks)) return;
    const list = blocks as Wire[];
    for (let i = 0; i < list.length; i++) {
      const block = list[i]!;
      if (block.cache_control != null && ++seen > MAX_CACHE_BREAKPOINTS) {
        // A copy: the block may be a client's raw block kept in the canonical request.
        const { cache_control: _removed, ...rest } = block;
        list[i] = rest;
        reportLoss(context, {
          code: 'dropped-field',
          path: joinPath(joinPath(path(), i), 'cache_control'),
          message: `Claude accepts at most ${MAX_CACHE_BREAKPOINTS} cache breakpoints; this one was removed`,
          protocol: PROTOCOL,
        });
      }
      if (block.type === 'tool_result') visitAll(block.content, () => joinPath(joinPath(path(), i), 'content'));
    }
  };
  visitAll(body.tools, () => 'tools');
  visitAll(body.system, () => 'system');
  const messages = body.messages as Wire[];
  for (let i = 0; i < messages.length; i++) visitAll(messages[i]!.content, () => joinPath(joinPath('messages', i), 'content'));
}
