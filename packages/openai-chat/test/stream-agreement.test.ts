// Property: the stream encoder and the response encoder agree. For any canonical response, the
// `chat.completion.chunk`s the stream encoder writes (for core's responseToEvents of it), folded
// the way the OpenAI SDK's ChatCompletionStream accumulates them, equal the `chat.completion` body,
// and both report the same losses.
import { FINISH_REASONS, responseToEvents, type LlmAssistantContent, type LlmCitation, type LlmResponse } from '@llm/core';
import { encodeBothWays } from '@llm/test-utils';
import fc from 'fast-check';
import * as arb from '@llm/test-utils/canonical-arbitraries';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

type Wire = Record<string, unknown>;
type Call = Wire & { index: number; function?: Wire; custom?: Wire };

/** Appends a text delta to `holder[key]` (absent until a delta names the field). */
function append(holder: Wire, key: string, value: unknown): void {
  if (typeof value === 'string') holder[key] = `${(holder[key] as string | undefined) ?? ''}${value}`;
}

/** Merges one `tool_calls[]` delta into the calls by wire index: id, type and name from the first, arguments / input concatenated. */
function mergeCall(calls: Map<number, Call>, delta: Call): void {
  let call = calls.get(delta.index);
  if (!call) {
    call = { index: delta.index };
    calls.set(delta.index, call);
  }
  if (delta.id !== undefined) call.id = delta.id;
  if (delta.type !== undefined) call.type = delta.type;
  for (const kind of ['function', 'custom'] as const) {
    const fragment = delta[kind];
    if (!fragment) continue;
    const target = (call[kind] ??= {});
    if (fragment.name !== undefined) target.name = fragment.name;
    append(target, kind === 'function' ? 'arguments' : 'input', kind === 'function' ? fragment.arguments : fragment.input);
  }
}

/**
 * Chunks -> one completion, as the SDK reads a stream: choices by `index`; `content`, `refusal`
 * and `reasoning_content` concatenated (absent content and refusal are `null`); tool calls merged
 * by index; the last `annotations`; the last `finish_reason`; `usage` from the usage-only chunk. `object` stays the
 * chunks' (`chat.completion.chunk`): it names the payload kind, so it differs by design.
 */
function fold(chunks: readonly unknown[]): Wire {
  const completion: Wire = {};
  const choices = new Map<number, { choice: Wire; message: Wire; calls: Map<number, Call> }>();
  for (const chunk of chunks as Wire[]) {
    const { choices: list, usage, ...rest } = chunk;
    Object.assign(completion, rest);
    if (usage !== undefined) completion.usage = usage;
    for (const wire of list as Wire[]) {
      const index = wire.index as number;
      let folded = choices.get(index);
      if (!folded) {
        folded = { choice: { index }, message: {}, calls: new Map() };
        choices.set(index, folded);
      }
      const delta = wire.delta as Wire;
      if (delta.role !== undefined) folded.message.role = delta.role;
      append(folded.message, 'content', delta.content);
      append(folded.message, 'refusal', delta.refusal);
      append(folded.message, 'reasoning_content', delta.reasoning_content);
      for (const call of (delta.tool_calls ?? []) as Call[]) mergeCall(folded.calls, call);
      // As the SDK does: a delta's annotations are a message field, the last one kept.
      if (delta.annotations !== undefined) folded.message.annotations = delta.annotations;
      if (wire.finish_reason !== null && wire.finish_reason !== undefined) folded.choice.finish_reason = wire.finish_reason;
      if (wire.logprobs !== undefined) folded.choice.logprobs = wire.logprobs;
    }
  }
  completion.choices = [...choices.values()]
    .sort((a, b) => (a.choice.index as number) - (b.choice.index as number))
    .map(({ choice, message, calls }) => {
      const { content = null, refusal = null, ...others } = message;
      const folded: Wire = { ...others, content, refusal };
      if (calls.size > 0) folded.tool_calls = [...calls.values()].sort((a, b) => a.index - b.index).map(({ index: _index, ...call }) => call);
      return { index: choice.index, message: folded, finish_reason: choice.finish_reason, logprobs: choice.logprobs ?? null };
    });
  return completion;
}

// Texts are not empty: a Chat stream has no form for an empty content, refusal or reasoning text
// (readers, the SDK's and the stream decoder, take `""` as nothing), where the body keeps `""`.
const text = arb.texts(1);
const signature = arb.signatures();
const callId = arb.ids('call_');
// URL citations become annotations both ways; file citations are dropped and reported both ways.
const citation: fc.Arbitrary<LlmCitation> = fc.oneof(
  fc
    .record({ url: fc.webUrl(), title: fc.string({ maxLength: 6 }), startIndex: fc.nat(20), endIndex: fc.nat(20) }, { requiredKeys: ['url'] })
    .map((fields) => ({ kind: 'url' as const, ...fields })),
  arb.ids('file_', 6).map((fileId) => ({ kind: 'file' as const, fileId })),
);
// Chat has no code runs: both paths drop them, reported alike.
const run = { languages: ['python'], id: arb.ids('ci_'), origins: [{ protocol: 'openai-responses' }, { protocol: 'gemini' }, undefined] } as const;
const part: fc.Arbitrary<LlmAssistantContent | readonly LlmAssistantContent[]> = fc.oneof(
  fc.tuple(text, fc.array(citation, { minLength: 1, maxLength: 2 })).map(([value, citations]) => ({ type: 'text' as const, text: value, citations })),
  // A signed text is Gemini's (no origin): Chat carries no signature, both paths report it.
  arb.signedTextParts(text, signature, true),
  arb.reasoningParts(text, signature, [{ protocol: 'openai-chat' }, { protocol: 'claude' }] as const),
  // A signature alone (Claude's empty thinking): dropped with a warning both ways.
  signature.map((sig) => ({ type: 'reasoning' as const, text: '', signature: sig, origin: { protocol: 'claude' as const } })),
  // Redacted reasoning (Claude's `redacted_thinking`): no text, its data the signature.
  arb.redactedReasoningParts(signature, [{ protocol: 'claude' }] as const),
  arb.signedCallParts(callId, signature),
  ...arb.sharedParts({ text, callId, freeformText: arb.texts(), argumentTexts: ['[1]', 'not json', '"s"'], run }),
  // Provider items of every protocol (the codec's own written back whole) and the MCP parts.
  arb.providerParts(arb.providerItems),
  ...arb.mcpParts({ text, callId: arb.ids('mcp_') }),
);
// `created` is always set: with none, each encoder stamps its own clock (compared apart below).
const usage = arb.usages({ cacheReadTokens: 1000, reasoningTokens: 1000 });
const wire = {
  id: arb.ids('chatcmpl-'),
  models: ['gpt-4o', 'claude-sonnet-4-5'],
  created: true,
  choices: 'many',
  usage,
  serviceTiers: ['default', 'flex'],
} as const;
const response: fc.Arbitrary<LlmResponse> = arb.responses(part, FINISH_REASONS, wire);

const bothWays = (value: LlmResponse) => encodeBothWays(openaiChat, value, responseToEvents, { includeUsage: true });

/** The chunks before `[DONE]` (the end marker is not JSON a client folds). */
function payloads(value: LlmResponse): { body: Wire; folded: Wire; both: ReturnType<typeof bothWays> } {
  const both = bothWays(value);
  expect(both.chunks.at(-1)).toBe('[DONE]');
  return { body: both.body as Wire, folded: fold(both.chunks.slice(0, -1)), both };
}

describe('property: the stream and the non-stream encoding of a response agree', () => {
  it('folded chunks equal the completion body but for `object`, with the same losses reported', () => {
    // `object` names the payload kind: it differs by design.
    const withoutObject = ({ object, ...rest }: Wire) => ({ object, rest });
    arb.assertAgreement(
      response,
      bothWays,
      (both) => {
        expect(both.chunks.at(-1)).toBe('[DONE]');
        const [streamed, body] = [withoutObject(fold(both.chunks.slice(0, -1))), withoutObject(both.body as Wire)];
        expect([streamed.object, body.object]).toEqual(['chat.completion.chunk', 'chat.completion']);
        return { streamed: streamed.rest, body: body.rest };
      },
      expect,
    );
  });

  it('a choice that said nothing streams `content: null`, as its body has it', () => {
    const value: LlmResponse = { id: 'chatcmpl-1', model: 'gpt-4o', created: 1, choices: [{ index: 0, content: [], finishReason: 'stop' }] };
    const both = bothWays(value);
    const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o' };
    expect(both.chunks).toEqual([{ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: 'stop' }] }, '[DONE]']);
    expect((both.body as { choices: unknown[] }).choices).toEqual([
      { index: 0, message: { role: 'assistant', content: null, refusal: null }, finish_reason: 'stop', logprobs: null },
    ]);
  });

  it('a reasoning signature, a signed text and a signed call are reported the same way by both paths', () => {
    const value: LlmResponse = {
      id: 'chatcmpl-1',
      model: 'gpt-4o',
      created: 1,
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: 'Hm.', signature: 'sigR', origin: { protocol: 'claude' } },
            { type: 'text', text: 'Hi', signature: 'sigT' },
            { type: 'tool-call', id: 'call_1', name: 'f', arguments: {}, signature: 'sigC' },
          ],
          finishReason: 'tool_calls',
        },
      ],
    };
    const both = bothWays(value);
    const fromClaude = { code: 'foreign-state', message: 'provider state issued by claude was not replayed to openai-chat', protocol: 'openai-chat' };
    const fromGemini = { code: 'foreign-state', message: 'provider state issued by gemini was not replayed to openai-chat', protocol: 'openai-chat' };
    expect(both.bodyWarnings).toEqual([
      { ...fromClaude, path: 'choices[0].content[0]' },
      { ...fromGemini, path: 'choices[0].content[1]' },
      { ...fromGemini, path: 'choices[0].content[2]' },
    ]);
    expect(both.streamWarnings).toEqual([
      { ...fromClaude, path: 'blocks[0]' },
      { ...fromGemini, path: 'blocks[1]' },
      { ...fromGemini, path: 'blocks[2]' },
    ]);
    expect((both.body as { choices: Array<{ message: unknown }> }).choices[0]!.message).toEqual({
      role: 'assistant',
      content: 'Hi',
      refusal: null,
      reasoning_content: 'Hm.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
  });

  it('with no `created`, each path stamps the current second (the only field that may differ)', () => {
    const value: LlmResponse = { id: 'chatcmpl-1', model: 'gpt-4o', choices: [{ index: 0, content: [{ type: 'text', text: 'Hi' }], finishReason: 'stop' }] };
    const before = Math.floor(Date.now() / 1000);
    const { body, folded } = payloads(value);
    const after = Math.floor(Date.now() / 1000);
    for (const created of [body.created, folded.created]) expect(created).toSatisfy((at: number) => Number.isInteger(at) && at >= before && at <= after);
    const { object: _chunkObject, created: _streamCreated, ...streamed } = folded;
    const { object: _bodyObject, created: _bodyCreated, ...answered } = body;
    expect(streamed).toEqual(answered);
  });

  it('a provider part is dropped by both paths with the body’s report', () => {
    const value: LlmResponse = {
      id: 'chatcmpl-1',
      model: 'gpt-4o',
      created: 1,
      choices: [
        { index: 0, content: [{ type: 'provider', protocol: 'openai-responses', value: { type: 'web_search_call', id: 'ws_1' } }], finishReason: 'stop' },
      ],
    };
    const both = bothWays(value);
    const loss = { code: 'dropped-part', message: 'a provider part has no openai-chat response form', protocol: 'openai-chat' };
    expect(both.bodyWarnings).toEqual([{ ...loss, path: 'choices[0].content[0]' }]);
    expect(both.streamWarnings).toEqual([{ ...loss, path: 'blocks[0]' }]);
  });
});
