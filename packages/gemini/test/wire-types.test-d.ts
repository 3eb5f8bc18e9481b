// The codec's wire types checked against the official `@google/genai` types. The SDK's types are
// its own surface, not always the wire (it renames `citationSources` to `citations`, see
// gemini.md §2), so the check is on the fields the codec names.
import type { Candidate, Content, GenerateContentResponse, GenerateContentResponseUsageMetadata, GenerationConfig, Part } from '@google/genai';
import { describe, expectTypeOf, it } from 'vitest';
import type { GeminiCandidate, GeminiContent, GeminiGenerationConfig, GeminiPart, GeminiResponse, GeminiUsageMetadata } from '../src/index.js';

type Named<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
type Unknown<Ours, Theirs> = Exclude<keyof Named<Ours>, keyof Theirs>;
type IsNever<T> = [T] extends [never] ? true : false;

describe('wire types vs @google/genai', () => {
  it('parts and contents name only SDK fields', () => {
    expectTypeOf<IsNever<Unknown<GeminiPart, Part>>>().toEqualTypeOf<true>();
    expectTypeOf<IsNever<Unknown<GeminiContent, Content>>>().toEqualTypeOf<true>();
  });

  it('generation config names only SDK fields', () => {
    expectTypeOf<IsNever<Unknown<GeminiGenerationConfig, GenerationConfig>>>().toEqualTypeOf<true>();
    expectTypeOf<
      IsNever<Unknown<NonNullable<GeminiGenerationConfig['thinkingConfig']>, NonNullable<GenerationConfig['thinkingConfig']>>>
    >().toEqualTypeOf<true>();
  });

  it('responses, candidates and usage name only SDK fields (citationMetadata keeps its wire name)', () => {
    expectTypeOf<IsNever<Unknown<GeminiResponse, GenerateContentResponse>>>().toEqualTypeOf<true>();
    expectTypeOf<IsNever<Unknown<GeminiCandidate, Candidate>>>().toEqualTypeOf<true>();
    expectTypeOf<IsNever<Unknown<GeminiUsageMetadata, GenerateContentResponseUsageMetadata>>>().toEqualTypeOf<true>();
  });
});
