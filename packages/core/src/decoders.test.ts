import { thrown } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { answerDecoder, requestDecoder } from './decoders.js';
import { LlmError } from './errors.js';
import { parseJson } from './json-depth.js';

const thrownBy = (run: () => unknown): LlmError => thrown(run) as LlmError;

/** `{type:"object", properties:{a: …}}` nested `levels` deep, ending in `{type:"string"}`. */
const deepSchema = (levels: number): Record<string, unknown> =>
  JSON.parse(`${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`);

describe('requestDecoder', () => {
  const decode = requestDecoder('claude', (wire: unknown) => ({ decoded: wire }));

  it.each([5_000, 100_000])('refuses a %i-level tool schema with invalid_request naming the path, before the decoder walks it', (levels) => {
    const error = thrownBy(() => decode({ tools: [{ name: 'f', input_schema: deepSchema(levels) }] }));
    expect(error.toJSON()).toEqual({
      kind: 'invalid_request',
      status: 400,
      message: 'tools[0].input_schema.properties.a.properties.a.properties….a.properties: JSON nested deeper than 128 levels',
      path: 'tools[0].input_schema.properties.a.properties.a.properties….a.properties',
      protocol: 'claude',
    });
  });

  it('passes other input to the decoder', () => {
    expect(decode({ model: 'm' })).toEqual({ decoded: { model: 'm' } });
    const body = parseJson('{"model":"m"}');
    expect(decode(body)).toEqual({ decoded: body });
  });
});

describe('answerDecoder', () => {
  it('makes a response decoder throw upstream errors, leaving its answers alone', () => {
    const decode = answerDecoder('openai-chat', (wire) => {
      if (wire === null) throw LlmError.invalidRequest('$', 'expected an object, got null');
      return { id: 'a', model: 'm', choices: [] };
    });
    expect(decode({})).toEqual({ id: 'a', model: 'm', choices: [] });
    expect(thrownBy(() => decode(null)).toJSON()).toEqual({
      kind: 'upstream',
      status: 502,
      message: 'invalid Chat Completions answer',
      path: '$',
      protocol: 'openai-chat',
    });
    expect(thrownBy(() => decode({ choices: deepSchema(5_000) })).toJSON()).toMatchObject({
      kind: 'upstream',
      status: 502,
      message: expect.stringMatching(/^invalid Chat Completions answer at choices\.properties\.a/),
    });
  });

  it("refuses what the codec's answerFault refuses even when the decoder reads it", () => {
    const decode = answerDecoder(
      'claude',
      () => ({ id: 'a', model: 'm', choices: [] }),
      (wire) => ((wire as { type?: unknown }).type === 'message' ? undefined : 'type'),
    );
    expect(decode({ type: 'message' })).toEqual({ id: 'a', model: 'm', choices: [] });
    const error = thrownBy(() => decode({ content: [] }));
    expect(error.toJSON()).toEqual({ kind: 'upstream', status: 502, message: 'invalid Claude answer at type', path: 'type', protocol: 'claude' });
    expect(String(error.cause)).toBe('UnrecognizedAnswer: not a Claude answer: type is missing or not of the type every answer has there');
  });
});
