// Property: the stream encoder and the response encoder agree. For any canonical response, the
// events the stream encoder writes (for core's responseToEvents of it), folded into a Message the
// way the Anthropic SDK's MessageStream accumulates them, equal the response body, and both report
// the same losses.
import { FINISH_REASONS, responseToEvents, type LlmAssistantContent, type LlmCitation, type LlmResponse } from '@llm/core';
import { encodeBothWays } from '@llm/test-utils';
import fc from 'fast-check';
import * as arb from '@llm/test-utils/canonical-arbitraries';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

type Wire = Record<string, unknown>;

/** One content block being folded, with the tool input's JSON text until the block stops. */
type Block = Wire & { json?: string };

/**
 * Events -> one Message, as the SDK reads a stream: `message_start`'s message; each block from
 * its `content_block_start`, then `text_delta`, `thinking_delta`, `citations_delta` appended,
 * `signature_delta` replacing, `input_json_delta` joined and parsed at `content_block_stop`;
 * `stop_reason`, `stop_sequence` and usage from `message_delta` (output tokens always, the other
 * counts when present). Fails on an out-of-order event, as the SDK does.
 */
function fold(events: readonly unknown[]): Wire {
  let message: (Wire & { content: Block[]; usage: Wire }) | undefined;
  let stopped = false;
  for (const event of events as Wire[]) {
    if (stopped) throw new Error(`${String(event.type)} after message_stop`);
    if (event.type === 'message_start') {
      if (message) throw new Error('a second message_start');
      message = structuredClone(event.message) as typeof message;
      continue;
    }
    if (!message) throw new Error(`${String(event.type)} before message_start`);
    switch (event.type) {
      case 'content_block_start':
        if (event.index !== message.content.length) throw new Error(`block ${String(event.index)} started out of order`);
        message.content.push(structuredClone(event.content_block) as Block);
        break;
      case 'content_block_delta': {
        const block = message.content[event.index as number];
        const delta = event.delta as Wire;
        if (!block) throw new Error(`a delta for block ${String(event.index)}, never started`);
        if (delta.type === 'text_delta' && block.type === 'text') block.text = `${block.text as string}${delta.text as string}`;
        else if (delta.type === 'thinking_delta' && block.type === 'thinking') block.thinking = `${block.thinking as string}${delta.thinking as string}`;
        else if (delta.type === 'signature_delta' && block.type === 'thinking') block.signature = delta.signature;
        else if (delta.type === 'citations_delta' && block.type === 'text') block.citations = [...((block.citations as unknown[]) ?? []), delta.citation];
        else if (delta.type === 'input_json_delta' && 'input' in block) block.json = `${block.json ?? ''}${delta.partial_json as string}`;
        else throw new Error(`a ${String(delta.type)} for a ${String(block.type)} block`);
        break;
      }
      case 'content_block_stop': {
        const block = message.content[event.index as number];
        if (!block) throw new Error(`block ${String(event.index)} stopped, never started`);
        if (block.json !== undefined) {
          block.input = JSON.parse(block.json);
          delete block.json;
        }
        break;
      }
      case 'message_delta': {
        const delta = event.delta as Wire;
        const usage = event.usage as Wire;
        message.stop_reason = delta.stop_reason;
        message.stop_sequence = delta.stop_sequence;
        message.usage.output_tokens = usage.output_tokens;
        for (const key of ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'server_tool_use', 'output_tokens_details'])
          if (usage[key] !== undefined && usage[key] !== null) message.usage[key] = usage[key];
        break;
      }
      case 'message_stop':
        stopped = true;
        break;
      default:
        throw new Error(`an unexpected ${String(event.type)} event`);
    }
  }
  if (!message || !stopped) throw new Error('the stream did not end with message_stop');
  return message;
}

const text = arb.texts();
const signature = arb.signatures();
const citation: fc.Arbitrary<LlmCitation> = fc.oneof(
  // Claude's own (decoded from a Claude answer: its wire type kept in the bag).
  fc
    .record({ citedText: text, documentIndex: fc.nat(3), title: text })
    .map((fields) => ({ kind: 'document' as const, ...fields, extensions: { claude: { type: 'char_location', start_char_index: 0, end_char_index: 1 } } })),
  // Another protocol's: rewritten with approximate location fields, reported.
  fc.record({ url: fc.webUrl(), title: text }, { requiredKeys: ['url'] }).map((fields) => ({ kind: 'url' as const, ...fields })),
  fc.record({ citedText: text, documentIndex: fc.nat(3) }, { requiredKeys: [] }).map((fields) => ({ kind: 'document' as const, ...fields })),
);
// Python and bash runs, Claude's or another protocol's (files: a Claude file id is kept, an image URL reported).
const run = { languages: ['python', 'bash'], id: arb.ids('srvtoolu_'), origins: [{ protocol: 'claude' }, { protocol: 'gemini' }, undefined] } as const;
const part: fc.Arbitrary<LlmAssistantContent | readonly LlmAssistantContent[]> = fc.oneof(
  fc
    .record({ text, citations: fc.array(citation, { minLength: 1, maxLength: 2 }) }, { requiredKeys: ['text'] })
    .map((fields) => ({ type: 'text' as const, ...fields })),
  // A signed text is Gemini's: Claude has no text signature.
  arb.signedTextParts(text, signature),
  arb.reasoningParts(text, signature, [{ protocol: 'claude' }, { protocol: 'openai-responses' }, undefined] as const),
  arb.redactedReasoningParts(signature, [{ protocol: 'claude' }] as const),
  ...arb.sharedParts({ text, callId: arb.ids('toolu_'), argumentTexts: ['[1]', 'not json', '"s"', '{"a":1}', ''], run }),
  // Provider items of every protocol (the codec's own written back whole) and the MCP parts.
  arb.providerParts(arb.providerItems),
  ...arb.mcpParts({ text, callId: arb.ids('mcptoolu_') }),
);
const usage = arb.usages({ cacheReadTokens: 100, cacheWriteTokens: 100, reasoningTokens: 100 });
const response: fc.Arbitrary<LlmResponse> = arb.responses(part, FINISH_REASONS, {
  id: arb.ids('msg_'),
  models: ['claude-sonnet-4-5', 'gpt-4o'],
  stopSequence: true,
  usage,
});

const bothWays = (value: LlmResponse) => encodeBothWays(claude, value, responseToEvents);

describe('property: the stream and the non-stream encoding of a response agree', () => {
  it('the folded stream equals the response body, with the same losses reported', () => {
    arb.assertAgreement(response, bothWays, (both) => ({ streamed: fold(both.chunks) }), expect);
  });

  it('arguments that are not a JSON object stream as the body writes them: `{}`, reported', () => {
    const value: LlmResponse = {
      id: 'msg_1',
      model: 'claude-sonnet-4-5',
      choices: [{ index: 0, content: [{ type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '[1]' }], finishReason: 'tool_calls' }],
    };
    const both = bothWays(value);
    const block = { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} };
    expect(both.chunks.slice(1, -2)).toEqual([
      { type: 'content_block_start', index: 0, content_block: block },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect((both.body as { content: unknown }).content).toEqual([block]);
    const loss = { code: 'lossy-conversion', message: 'tool-call arguments that are not a JSON object were replaced by {}', protocol: 'claude' };
    expect(both.bodyWarnings).toEqual([{ ...loss, path: 'choices[0].content[0].arguments' }]);
    expect(both.streamWarnings).toEqual([{ ...loss, path: 'blocks[0].arguments' }]);
  });

  it('another protocol’s reasoning signature is dropped from the body too (the thinking stays, unsigned)', () => {
    const value: LlmResponse = {
      id: 'msg_1',
      model: 'gpt-5',
      choices: [
        { index: 0, content: [{ type: 'reasoning', text: 'Hm.', signature: 'enc_1', origin: { protocol: 'openai-responses' } }], finishReason: 'stop' },
      ],
    };
    const both = bothWays(value);
    const thinking = { type: 'thinking', thinking: 'Hm.', signature: '' };
    expect((both.body as { content: unknown }).content).toEqual([thinking]);
    expect((fold(both.chunks) as { content: unknown }).content).toEqual([thinking]);
    const loss = { code: 'foreign-state', message: 'provider state issued by openai-responses was not replayed to claude (gpt-5)', protocol: 'claude' };
    expect(both.bodyWarnings).toEqual([{ ...loss, path: 'choices[0].content[0]' }]);
    expect(both.streamWarnings).toEqual([{ ...loss, path: 'blocks[0]' }]);
  });

  it('another protocol’s item (a Responses web_search_call) is left out by both paths, reported alike', () => {
    const value: LlmResponse = {
      id: 'msg_1',
      model: 'gpt-5',
      choices: [
        {
          index: 0,
          content: [
            { type: 'provider', protocol: 'openai-responses', value: { type: 'web_search_call', id: 'ws_1', status: 'completed' } },
            { type: 'text', text: 'Found.' },
          ],
          finishReason: 'stop',
        },
      ],
    };
    const both = bothWays(value);
    expect((both.body as { content: unknown }).content).toEqual([{ type: 'text', text: 'Found.' }]);
    expect(fold(both.chunks)).toEqual(both.body);
    const loss = { code: 'dropped-part', message: 'openai-responses item has no Claude equivalent', protocol: 'claude' };
    expect(both.bodyWarnings).toEqual([{ ...loss, path: 'choices[0].content[0]' }]);
    expect(both.streamWarnings).toEqual([{ ...loss, path: 'blocks[0]' }]);
  });

  it('object arguments still stream as they come, a free-form call’s input at the end as `{"input": ...}`', () => {
    const value: LlmResponse = {
      id: 'msg_1',
      model: 'claude-sonnet-4-5',
      choices: [
        {
          index: 0,
          content: [
            { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: { a: 1 } },
            { type: 'tool-call', id: 'toolu_2', name: 'apply_patch', arguments: '*** Begin', freeform: true },
          ],
          finishReason: 'tool_calls',
        },
      ],
    };
    const both = bothWays(value);
    expect(both.chunks.slice(1, -2)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":1}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_2', name: 'apply_patch', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"input":"*** Begin"}' } },
      { type: 'content_block_stop', index: 1 },
    ]);
    const loss = { code: 'lossy-conversion', message: 'a free-form tool call was sent as a call with one string argument `input`', protocol: 'claude' };
    expect(both.bodyWarnings).toEqual([{ ...loss, path: 'choices[0].content[1]' }]);
    expect(both.streamWarnings).toEqual([{ ...loss, path: 'blocks[1]' }]);
  });
});
