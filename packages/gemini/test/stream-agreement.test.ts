// Property: the stream encoder and the response encoder agree. For any canonical response, the
// Gemini chunks the stream encoder writes (for core's responseToEvents of it), merged the way a
// Gemini client reads a stream, equal the non-stream body, and both report the same losses.
import { FINISH_REASONS, responseToEvents, type LlmAssistantContent, type LlmCitation, type LlmResponse } from '@llm/core';
import fc from 'fast-check';
import { encodeBothWays } from '@llm/test-utils';
import * as arb from '@llm/test-utils/canonical-arbitraries';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

type Wire = Record<string, unknown>;

/** Stream chunks -> one body: each candidate's parts in order, the last value of every other field. */
function mergeChunks(chunks: readonly unknown[]): Wire {
  const body: Wire = {};
  const candidates = new Map<unknown, Wire & { content: { parts: Wire[]; role: string } }>();
  for (const chunk of chunks as Wire[]) {
    const { candidates: list, ...rest } = chunk;
    Object.assign(body, rest);
    for (const candidate of (list ?? []) as Wire[]) {
      const { content, ...meta } = candidate;
      let merged = candidates.get(candidate.index);
      if (!merged) candidates.set(candidate.index, (merged = { content: { parts: [], role: 'model' } }));
      Object.assign(merged, meta);
      merged.content.parts.push(...(((content as Wire | undefined)?.parts ?? []) as Wire[]));
    }
  }
  if (candidates.size > 0) body.candidates = [...candidates.values()];
  return body;
}

const isText = (part: Wire): boolean =>
  typeof part.text === 'string' && Object.keys(part).every((key) => key === 'text' || key === 'thought' || key === 'thoughtSignature');

/**
 * Adjacent text parts of one kind (thought or not) read as one text, ended by a signature: Gemini
 * streams a text in several parts and a signature on a closing empty part.
 */
function joinTexts(body: Wire): Wire {
  for (const candidate of (body.candidates ?? []) as Wire[]) {
    const content = candidate.content as { parts?: Wire[] } | undefined;
    if (!content?.parts) continue;
    const parts: Wire[] = [];
    for (const part of content.parts) {
      const last = parts.at(-1);
      if (last && isText(last) && isText(part) && last.thoughtSignature === undefined && last.thought === part.thought) {
        parts[parts.length - 1] = { ...last, ...part, text: `${last.text as string}${part.text as string}` };
      } else parts.push(part);
    }
    content.parts = parts;
  }
  return body;
}

/**
 * The body with its grounding segments' `partIndex` taken out: a stream writes none by design (a
 * text's parts span chunks, so its segments name the text, not a wire part). Everything else of
 * the grounding must agree.
 */
function withoutPartIndex(body: Wire): Wire {
  for (const candidate of (body.candidates ?? []) as Wire[]) {
    const supports = ((candidate.groundingMetadata as Wire | undefined)?.groundingSupports ?? []) as Wire[];
    for (const support of supports) {
      const segment = support.segment as Wire;
      expect(segment.partIndex).toBeTypeOf('number');
      delete segment.partIndex;
    }
  }
  return body;
}

const text = arb.texts();
const signature = arb.signatures();
// Gemini runs Python; a file a run wrote has no Gemini form (reported both ways).
const run = { languages: ['python'], id: arb.ids('exec_'), origins: [{ protocol: 'gemini' }, { protocol: 'claude' }, undefined] } as const;
// URL citations become the candidate's grounding both ways; a document citation is reported both ways.
const citation: fc.Arbitrary<LlmCitation> = fc.oneof(
  fc
    .record({ url: fc.webUrl(), title: text, startIndex: fc.nat(12), endIndex: fc.nat(12) }, { requiredKeys: ['url'] })
    .map((fields) => ({ kind: 'url' as const, ...fields })),
  fc.record({ citedText: text, documentIndex: fc.nat(3) }, { requiredKeys: [] }).map((fields) => ({ kind: 'document' as const, ...fields })),
);
const part: fc.Arbitrary<LlmAssistantContent | readonly LlmAssistantContent[]> = fc.oneof(
  fc
    .record({ text, citations: fc.array(citation, { minLength: 1, maxLength: 2 }) }, { requiredKeys: ['text'] })
    .map((fields) => ({ type: 'text' as const, ...fields })),
  arb.signedTextParts(text, signature, true),
  arb.reasoningParts(text, signature, [{ protocol: 'gemini' }] as const),
  ...arb.sharedParts({ text, callId: arb.ids('call_'), argumentTexts: ['[1]', 'not json', '"s"'], run }),
  // Provider items of every protocol (the codec's own written back whole) and the MCP parts.
  arb.providerParts(arb.providerItems),
  ...arb.mcpParts({ text, callId: arb.ids('mcp_') }),
);
const response: fc.Arbitrary<LlmResponse> = arb.responses(part, FINISH_REASONS, {
  id: arb.ids('resp'),
  models: ['gemini-2.5-flash', 'claude-sonnet-4-5'],
  choices: 'many',
  usage: arb.usages(),
});

const bothWays = (value: LlmResponse) => encodeBothWays(gemini, value, responseToEvents);

describe('property: the stream and the non-stream encoding of a response agree', () => {
  it('merged stream chunks equal the response body, with the same losses reported', () => {
    const read = (both: ReturnType<typeof bothWays>) => ({
      streamed: joinTexts(mergeChunks(both.chunks)),
      body: withoutPartIndex(joinTexts(structuredClone(both.body) as Wire)),
    });
    arb.assertAgreement(response, bothWays, read, expect);
  });

  it('a free-form call streams its input as the one string argument `input`, as the body does', () => {
    const value: LlmResponse = {
      id: 'r1',
      model: 'gpt-5',
      choices: [
        {
          index: 0,
          content: [{ type: 'tool-call', id: 'call_1', name: 'apply_patch', arguments: '*** Begin Patch', freeform: true }],
          finishReason: 'tool_calls',
        },
      ],
    };
    const both = encodeBothWays(gemini, value, responseToEvents);
    const call = { functionCall: { id: 'call_1', name: 'apply_patch', args: { input: '*** Begin Patch' } } };
    expect(both.chunks).toEqual([
      { candidates: [{ content: { parts: [call], role: 'model' }, index: 0 }], modelVersion: 'gpt-5', responseId: 'r1' },
      { candidates: [{ finishReason: 'STOP', index: 0 }], modelVersion: 'gpt-5', responseId: 'r1' },
    ]);
    expect((both.body as { candidates: Array<{ content: unknown }> }).candidates[0]!.content).toEqual({ parts: [call], role: 'model' });
    const warning = { code: 'lossy-conversion', message: 'a free-form tool call was sent as a call with one string argument `input`', protocol: 'gemini' };
    expect(both.streamWarnings).toEqual([{ ...warning, path: 'blocks[0]' }]);
    expect(both.bodyWarnings).toEqual([{ ...warning, path: 'choices[0].content[0]' }]);
  });
});
