// The codec's wire types checked against the official `openai` SDK's Chat Completions types:
// every field the codec names exists in the SDK (compatible-server extras named explicitly), and
// the SDK's values fit the codec's types.
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessage,
  ChatCompletionTokenLogprob,
} from 'openai/resources/chat/completions/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  OpenAIChatChunk,
  OpenAIChatFinishReason,
  OpenAIChatRequest,
  OpenAIChatResponse,
  OpenAIChatResponseMessage,
  OpenAIChatTokenLogprob,
  OpenAIChatUsage,
} from '../src/index.js';

type Named<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
type Unknown<Ours, Theirs> = Exclude<keyof Named<Ours>, keyof Theirs>;
type Extends<A, B> = [A] extends [B] ? true : false;
type IsNever<T> = [T] extends [never] ? true : false;

describe('wire types vs the openai SDK', () => {
  it('names only request fields the SDK has', () => {
    expectTypeOf<IsNever<Unknown<OpenAIChatRequest, ChatCompletionCreateParamsBase>>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<ChatCompletionCreateParamsBase['n'], OpenAIChatRequest['n']>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<ChatCompletionCreateParamsBase['stop'], OpenAIChatRequest['stop']>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<ChatCompletionCreateParamsBase['logit_bias'], OpenAIChatRequest['logit_bias']>>().toEqualTypeOf<true>();
  });

  it('names only response fields the SDK has (reasoning extras of compatible servers aside)', () => {
    expectTypeOf<IsNever<Unknown<OpenAIChatResponse, ChatCompletion>>>().toEqualTypeOf<true>();
    // DeepSeek, vLLM, xAI and OpenRouter send reasoning_content / reasoning (openai-chat.md).
    expectTypeOf<IsNever<Exclude<Unknown<OpenAIChatResponseMessage, ChatCompletionMessage>, 'reasoning_content' | 'reasoning'>>>().toEqualTypeOf<true>();
    expectTypeOf<OpenAIChatFinishReason>().toEqualTypeOf<ChatCompletion.Choice['finish_reason']>();
    expectTypeOf<IsNever<Unknown<OpenAIChatUsage, CompletionUsage>>>().toEqualTypeOf<true>();
    expectTypeOf<IsNever<Unknown<OpenAIChatTokenLogprob, ChatCompletionTokenLogprob>>>().toEqualTypeOf<true>();
  });

  it('names only chunk fields the SDK has', () => {
    expectTypeOf<IsNever<Unknown<OpenAIChatChunk, ChatCompletionChunk>>>().toEqualTypeOf<true>();
  });
});
