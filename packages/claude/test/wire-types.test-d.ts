// The codec's wire types checked against the official `@anthropic-ai/sdk` types: every field the
// codec names exists in the SDK with a compatible type, and the SDK's values fit the codec's.
import type { Message, MessageCreateParamsBase, RawMessageStreamEvent, StopReason, Usage } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ErrorResponse } from '@anthropic-ai/sdk/resources/shared';
import { describe, expectTypeOf, it } from 'vitest';
import type { ClaudeErrorBody, ClaudeRequest, ClaudeResponse, ClaudeStopReason, ClaudeStreamEvent, ClaudeUsage } from '../src/index.js';

/** `T` without its index signature: the fields the codec names. */
type Named<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
/** Named fields of `Ours` that the SDK type `Theirs` lacks (must be `never`). */
type Unknown<Ours, Theirs> = Exclude<keyof Named<Ours>, keyof Theirs>;
/** `true` when `A` is assignable to `B` (no distribution over unions). */
type Extends<A, B> = [A] extends [B] ? true : false;
/** `true` when `T` is `never`. */
type IsNever<T> = [T] extends [never] ? true : false;

describe('wire types vs @anthropic-ai/sdk', () => {
  it('names only request fields the SDK has', () => {
    // The 1.x SDK (anthropic-version 2026-10-21) dropped temperature / top_p / top_k, which
    // 2023-06-01 clients still send (claude.md, version notes).
    expectTypeOf<IsNever<Exclude<Unknown<ClaudeRequest, MessageCreateParamsBase>, 'temperature' | 'top_p' | 'top_k'>>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<MessageCreateParamsBase['max_tokens'], ClaudeRequest['max_tokens']>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<MessageCreateParamsBase['model'], ClaudeRequest['model']>>().toEqualTypeOf<true>();
  });

  it('stop reasons and usage match the SDK', () => {
    expectTypeOf<ClaudeStopReason>().toEqualTypeOf<StopReason>();
    expectTypeOf<IsNever<Unknown<ClaudeUsage, Usage>>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<Usage['input_tokens'], ClaudeUsage['input_tokens']>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<Usage['cache_creation_input_tokens'], ClaudeUsage['cache_creation_input_tokens']>>().toEqualTypeOf<true>();
  });

  it('names only response fields the SDK has, and SDK messages fit the codec type', () => {
    expectTypeOf<IsNever<Unknown<ClaudeResponse, Message>>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<Message['stop_reason'], ClaudeResponse['stop_reason']>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<Message['stop_sequence'], ClaudeResponse['stop_sequence']>>().toEqualTypeOf<true>();
  });

  it('stream event types are the SDK event types', () => {
    expectTypeOf<ClaudeStreamEvent['type']>().toEqualTypeOf<RawMessageStreamEvent['type'] | 'ping' | 'error'>();
  });

  it('the error body names the SDK error fields', () => {
    expectTypeOf<IsNever<Unknown<ClaudeErrorBody, ErrorResponse>>>().toEqualTypeOf<true>();
  });
});
