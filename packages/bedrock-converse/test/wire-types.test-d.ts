// The codec's wire types checked against the official `@aws-sdk/client-bedrock-runtime` types.
// The SDK models blobs as `Uint8Array` (JSON carries them as base64 text), unions with an
// `$unknown` member (not a wire shape) and the model id as a request member (the HTTP API
// carries it in the URL). Ours must be SDK shapes, and name no field the SDK does not have.
import type {
  ContentBlock,
  ConverseRequest as SdkRequest,
  ConverseResponse as SdkResponse,
  ConverseStreamMetadataEvent,
  Message,
  SystemContentBlock,
  TokenUsage,
  Tool,
  ToolChoice,
} from '@aws-sdk/client-bedrock-runtime';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  ConverseContentBlock,
  ConverseMessage,
  ConverseRequest,
  ConverseResponse,
  ConverseSystemBlock,
  ConverseTool,
  ConverseToolChoice,
  ConverseUsage,
} from '../src/index.js';

/** An SDK type as JSON carries it: blobs as base64 text, no `$unknown` union member. */
type Json<T> = T extends { $unknown: [string, unknown] }
  ? never
  : T extends Uint8Array
    ? string
    : T extends readonly (infer Item)[]
      ? Json<Item>[]
      : T extends object
        ? { [K in keyof T as K extends '$unknown' ? never : K]: Json<T[K]> }
        : T;

/** Keys of any member of a union. */
type KeysOf<T> = T extends unknown ? keyof T : never;

describe('wire types vs @aws-sdk/client-bedrock-runtime', () => {
  it('content blocks, messages and system blocks are SDK shapes', () => {
    expectTypeOf<ConverseContentBlock>().toExtend<Json<ContentBlock>>();
    expectTypeOf<ConverseMessage>().toExtend<Json<Message>>();
    expectTypeOf<ConverseSystemBlock>().toExtend<Json<SystemContentBlock>>();
    expectTypeOf<Exclude<KeysOf<ConverseContentBlock>, KeysOf<ContentBlock>>>().toEqualTypeOf<never>();
  });

  it('tools, tool choices and usage are SDK shapes', () => {
    expectTypeOf<ConverseTool>().toExtend<Json<Tool>>();
    expectTypeOf<ConverseToolChoice>().toExtend<Json<ToolChoice>>();
    expectTypeOf<ConverseUsage>().toExtend<TokenUsage>();
    expectTypeOf<Exclude<keyof ConverseUsage, keyof TokenUsage>>().toEqualTypeOf<never>();
  });

  it('a request body with the model id is an SDK ConverseRequest; an answer is an SDK ConverseResponse', () => {
    expectTypeOf<ConverseRequest & { modelId: string }>().toExtend<Json<SdkRequest>>();
    expectTypeOf<ConverseResponse>().toExtend<Json<SdkResponse>>();
    expectTypeOf<Exclude<keyof ConverseRequest, keyof SdkRequest>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<keyof ConverseResponse, keyof SdkResponse>>().toEqualTypeOf<never>();
    expectTypeOf<{ usage: ConverseUsage; metrics: { latencyMs: number } }>().toExtend<Json<ConverseStreamMetadataEvent>>();
  });
});
