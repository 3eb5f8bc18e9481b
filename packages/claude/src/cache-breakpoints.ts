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
  let seen = visitBlocks(body.tools, 'tools', 0, context);
  seen = visitBlocks(body.system, 'system', seen, context);
  const messages = body.messages as Wire[];
  for (let i = 0; i < messages.length; i++) seen = visitBlocks(messages[i]!.content, i, seen, context);
}

/**
 * Counts the breakpoints of `blocks` after `seen` earlier ones, removing those past the limit;
 * returns the new count. `path` is the list's path, or for a message's content the message's
 * index: joined only for a removed breakpoint (this runs on every request, over every message).
 */
function visitBlocks(blocks: unknown, path: string | number, seen: number, context: CodecContext | undefined): number {
  if (!Array.isArray(blocks)) return seen;
  const list = blocks as Wire[];
  for (let i = 0; i < list.length; i++) {
    const block = list[i]!;
    if (block.cache_control != null && ++seen > MAX_CACHE_BREAKPOINTS) {
      // A copy: the block may be a client's raw block kept in the canonical request.
      const { cache_control: _removed, ...rest } = block;
      list[i] = rest;
      reportLoss(context, {
        code: 'dropped-field',
        path: joinPath(joinPath(listPath(path), i), 'cache_control'),
        message: `Claude accepts at most ${MAX_CACHE_BREAKPOINTS} cache breakpoints; this one was removed`,
        protocol: PROTOCOL,
      });
    }
    if (block.type === 'tool_result' && Array.isArray(block.content))
      seen = visitBlocks(block.content, joinPath(joinPath(listPath(path), i), 'content'), seen, context);
  }
  return seen;
}

/** The path of a block list given as a path, or as the index of the message whose content it is. */
function listPath(path: string | number): string {
  return typeof path === 'number' ? joinPath(joinPath('messages', path), 'content') : path;
}
