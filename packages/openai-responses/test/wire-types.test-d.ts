// The codec's wire types checked against the official `openai` SDK's Responses types: every body
// the SDK can build must be accepted by the codec's types, and every field the codec names must
// exist in the SDK with a compatible type.
import type { LlmRequest, LlmResponse } from '@llm/core';
import type {
  Response,
  ResponseCreateParamsBase,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseStreamEvent,
  ResponseUsage,
  Tool,
} from 'openai/resources/responses/responses';
import { describe, expectTypeOf, it } from 'vitest';
import {
  openaiResponses,
  type OpenAIResponsesErrorBody,
  type OpenAIResponsesItem,
  type OpenAIResponsesRequest,
  type OpenAIResponsesResponse,
  type OpenAIResponsesStreamEvent,
  type OpenAIResponsesTool,
  type OpenAIResponsesUsage,
} from '../src/index.js';

/** `T` without its index signature: the fields the codec names. */
type Named<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
/** Named fields of `Ours` that the SDK type `Theirs` lacks (must be `never`). */
type Unknown<Ours, Theirs> = Exclude<keyof Named<Ours>, keyof Theirs>;
/** `true` when `A` is assignable to `B` (no distribution over unions). */
type Extends<A, B> = [A] extends [B] ? true : false;
/** `true` when `T` is `never`. */
type IsNever<T> = [T] extends [never] ? true : false;

describe('wire types vs the openai SDK', () => {
  it('accepts every request body the SDK can build', () => {
    expectTypeOf<Extends<ResponseCreateParamsBase, Named<OpenAIResponsesRequest>>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<ResponseInputItem, Named<OpenAIResponsesItem>>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<Tool, Named<OpenAIResponsesTool>>>().toEqualTypeOf<true>();
    // `max_tool_calls` is accepted by the API and echoed in live responses, but the SDK's create
    // params and Response (6.49) lack it (openai-responses.md §1).
    expectTypeOf<IsNever<Exclude<Unknown<OpenAIResponsesRequest, ResponseCreateParamsBase>, 'max_tool_calls'>>>().toEqualTypeOf<true>();
    expectTypeOf<OpenAIResponsesRequest['max_tool_calls']>().toEqualTypeOf<number | null | undefined>();
  });

  it('names only response fields the SDK has', () => {
    expectTypeOf<Extends<Response, Named<OpenAIResponsesResponse>>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<ResponseOutputItem, Named<OpenAIResponsesItem>>>().toEqualTypeOf<true>();
    expectTypeOf<Extends<ResponseUsage, Named<OpenAIResponsesUsage>>>().toEqualTypeOf<true>();
    expectTypeOf<IsNever<Unknown<OpenAIResponsesResponse, Response>>>().toEqualTypeOf<true>();
    expectTypeOf<IsNever<Exclude<keyof OpenAIResponsesUsage, keyof ResponseUsage>>>().toEqualTypeOf<true>();
    expectTypeOf<Named<OpenAIResponsesResponse>['object']>().toEqualTypeOf<Response['object']>();
  });

  it('covers every SDK stream event', () => {
    expectTypeOf<Extends<ResponseStreamEvent, Named<OpenAIResponsesStreamEvent>>>().toEqualTypeOf<true>();
    expectTypeOf<IsNever<Unknown<OpenAIResponsesStreamEvent, ResponseStreamEvent>>>().toEqualTypeOf<true>();
  });

  it('error body matches the SDK error fields', () => {
    expectTypeOf<OpenAIResponsesErrorBody['error']>().toHaveProperty('message').toEqualTypeOf<string>();
    expectTypeOf<keyof OpenAIResponsesErrorBody['error']>().toEqualTypeOf<'message' | 'type' | 'param' | 'code'>();
  });

  it('the codec is typed with these wire types', () => {
    expectTypeOf(openaiResponses.request.decode).parameter(0).toEqualTypeOf<unknown>();
    expectTypeOf(openaiResponses.request.decode).returns.toEqualTypeOf<LlmRequest>();
    expectTypeOf(openaiResponses.request.encode).returns.toEqualTypeOf<OpenAIResponsesRequest>();
    expectTypeOf(openaiResponses.response.decode).returns.toEqualTypeOf<LlmResponse>();
    expectTypeOf(openaiResponses.response.encode).returns.toEqualTypeOf<OpenAIResponsesResponse>();
  });
});
