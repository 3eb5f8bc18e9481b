// Property: the stream encoder and the response encoder agree. For any canonical response, the
// ConverseStream events the stream encoder writes (for core's responseToEvents of it), folded into
// a Converse answer the way a ConverseStream reader assembles one, equal the response body, and
// both report the same losses.
import { FINISH_REASONS, responseToEvents, type LlmAssistantContent, type LlmResponse } from '@llm/core';
import { encodeBothWays } from '@llm/test-utils';
import fc from 'fast-check';
import * as arb from '@llm/test-utils/canonical-arbitraries';
import { describe, expect, it } from 'vitest';
import { bedrockConverse } from '../src/index.js';

type Wire = Record<string, unknown>;
type Block = Wire & { json?: string };

/** The one member of a Converse union (`{text}`, `{toolUse}`, `{reasoningContent}`...). */
const memberOf = (union: Wire): [string, unknown] => {
  const keys = Object.keys(union);
  if (keys.length !== 1) throw new Error(`a union with members ${keys.join(', ')}`);
  return [keys[0]!, union[keys[0]!]];
};

/** Applies one `contentBlockDelta` to the block it names (created by its first delta unless a start made it). */
function applyDelta(block: Block, delta: Wire): void {
  const [member, value] = memberOf(delta);
  if (member === 'text') {
    if (block.text === undefined && Object.keys(block).length > 0) throw new Error('a text delta for another block kind');
    block.text = `${(block.text as string | undefined) ?? ''}${value as string}`;
  } else if (member === 'toolUse') {
    if (block.toolUse === undefined) throw new Error('a toolUse delta with no toolUse start');
    block.json = `${block.json ?? ''}${(value as Wire).input as string}`;
  } else if (member === 'reasoningContent') {
    const reasoning = (block.reasoningContent ??= {}) as Wire;
    const [kind, piece] = memberOf(value as Wire);
    if (kind === 'redactedContent') reasoning.redactedContent = piece;
    else {
      const text = (reasoning.reasoningText ??= { text: '' }) as Wire;
      if (kind === 'text') text.text = `${text.text as string}${piece as string}`;
      else if (kind === 'signature') text.signature = piece;
      else throw new Error(`a reasoning delta of ${kind}`);
    }
  } else throw new Error(`a ${member} delta`);
}

/**
 * Events -> one Converse answer: `messageStart`'s role; blocks by `contentBlockIndex`, a tool
 * call from its `contentBlockStart` with its input text joined from the deltas and parsed at
 * `contentBlockStop` (no text: `{}`), text and reasoning from their deltas (text joined, the
 * signature and redacted data as sent); `stopReason` and `additionalModelResponseFields` from
 * `messageStop`; `usage`, `metrics` and the other answer fields from `metadata`. A block must be
 * described before it stops, and the events come in the order the API sends them.
 */
function fold(events: readonly { event: string; payload: Wire }[]): Wire {
  const content: Block[] = [];
  const answer: Wire = {};
  let role: unknown;
  let phase: 'start' | 'blocks' | 'stopped' | 'done' = 'start';
  for (const { event, payload } of events) {
    if (phase === 'done') throw new Error(`${event} after metadata`);
    if (event === 'messageStart') {
      if (phase !== 'start') throw new Error('a second messageStart');
      role = payload.role;
      phase = 'blocks';
      continue;
    }
    if (phase === 'start') throw new Error(`${event} before messageStart`);
    const index = payload.contentBlockIndex as number;
    switch (event) {
      case 'contentBlockStart': {
        if (phase !== 'blocks' || content[index] !== undefined) throw new Error(`block ${index} started twice or late`);
        const [member, start] = memberOf(payload.start as Wire);
        if (member !== 'toolUse') throw new Error(`a ${member} start`);
        content[index] = { toolUse: { ...(start as Wire) } };
        break;
      }
      case 'contentBlockDelta':
        if (phase !== 'blocks') throw new Error('a delta after messageStop');
        applyDelta((content[index] ??= {}), payload.delta as Wire);
        break;
      case 'contentBlockStop': {
        const block = content[index];
        if (!block || Object.keys(block).length === 0) throw new Error(`block ${index} stopped, never described`);
        if (block.toolUse !== undefined) {
          (block.toolUse as Wire).input = block.json === undefined ? {} : JSON.parse(block.json);
          delete block.json;
        }
        break;
      }
      case 'messageStop':
        Object.assign(answer, payload);
        phase = 'stopped';
        break;
      case 'metadata':
        if (phase !== 'stopped') throw new Error('metadata before messageStop');
        Object.assign(answer, payload);
        phase = 'done';
        break;
      default:
        throw new Error(`an unexpected ${event} event`);
    }
  }
  if (phase !== 'done') throw new Error('the stream did not end with metadata');
  if (content.some((block) => block === undefined)) throw new Error('a block index was skipped');
  return { output: { message: { role, content } }, ...answer };
}

const text = arb.texts();
const signature = arb.signatures();
const origins = [{ protocol: 'bedrock-converse' }, { protocol: 'claude' }, undefined] as const;
// Converse has no code runs: both paths drop them, reported alike.
const run = { languages: ['python', 'bash'], id: arb.ids('srvtoolu_'), origins: [{ protocol: 'claude' }, { protocol: 'gemini' }, undefined] } as const;
const part: fc.Arbitrary<LlmAssistantContent | readonly LlmAssistantContent[]> = fc.oneof(
  arb.textParts(text),
  // A signed text is Gemini's: Converse has no text signature.
  arb.signedTextParts(text, signature),
  arb.reasoningParts(text, signature, origins),
  arb.redactedReasoningParts(signature, origins),
  ...arb.sharedParts({ text, callId: arb.ids('tooluse_'), argumentTexts: ['[1]', 'not json', '"s"', '{"a":1}', ''], run }),
  // Other protocols' items and the MCP parts, dropped both ways. Converse's own item is left out:
  // its body writes it back whole, a ConverseStream has no block for it.
  arb.providerParts({ claude: arb.providerItems.claude, 'openai-responses': arb.providerItems['openai-responses'], gemini: arb.providerItems.gemini }),
  ...arb.mcpParts({ text, callId: arb.ids('mcp_') }),
);
const usage = arb.usages({ cacheReadTokens: 100, cacheWriteTokens: 100, reasoningTokens: 100 });
const tiers = ['default', 'priority', 'flex'];
const response: fc.Arbitrary<LlmResponse> = arb.responses(part, FINISH_REASONS, {
  id: arb.ids(''),
  models: ['anthropic.claude-sonnet-4-5', 'gpt-4o'],
  stopSequence: true,
  usage,
  serviceTiers: tiers,
});

/** Both encodings, the stream's as named events (Converse payloads carry no type of their own). */
const bothWays = (value: LlmResponse) => {
  const both = encodeBothWays(bedrockConverse, value, responseToEvents);
  return { ...both, events: both.chunks.map((payload, at) => ({ event: both.eventNames[at] ?? '', payload: payload as Wire })) };
};

describe('property: the stream and the non-stream encoding of a response agree', () => {
  it('the folded stream equals the response body, with the same losses reported', () => {
    arb.assertAgreement(response, bothWays, (both) => ({ streamed: fold(both.events) }), expect);
  });

  it('the service tier streams in `metadata`, an empty text as an empty delta, non-object arguments as `{}` (reported)', () => {
    const value: LlmResponse = {
      id: 'r1',
      model: 'anthropic.claude-sonnet-4-5',
      serviceTier: 'flex',
      choices: [
        {
          index: 0,
          content: [
            { type: 'text', text: '' },
            { type: 'tool-call', id: 'tooluse_1', name: 'f', arguments: '[1]' },
          ],
          finishReason: 'tool_calls',
        },
      ],
    };
    const both = bothWays(value);
    expect(both.events).toEqual([
      { event: 'messageStart', payload: { role: 'assistant' } },
      { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: '' } } },
      { event: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
      { event: 'contentBlockStart', payload: { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_1', name: 'f' } } } },
      { event: 'contentBlockStop', payload: { contentBlockIndex: 1 } },
      { event: 'messageStop', payload: { stopReason: 'tool_use' } },
      {
        event: 'metadata',
        payload: { usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, serviceTier: { type: 'flex' }, metrics: { latencyMs: 0 } },
      },
    ]);
    expect(both.body).toEqual({
      output: { message: { role: 'assistant', content: [{ text: '' }, { toolUse: { toolUseId: 'tooluse_1', name: 'f', input: {} } }] } },
      stopReason: 'tool_use',
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      serviceTier: { type: 'flex' },
      metrics: { latencyMs: 0 },
    });
    const loss = { code: 'lossy-conversion', message: 'tool-call arguments that are not a JSON object were replaced by {}', protocol: 'bedrock-converse' };
    expect(both.bodyWarnings).toEqual([{ ...loss, path: 'choices[0].content[1].arguments' }]);
    expect(both.streamWarnings).toEqual([{ ...loss, path: 'blocks[1].arguments' }]);
  });

  it('another protocol’s reasoning keeps its text without its signature, and its redacted block is dropped, on both paths', () => {
    const value: LlmResponse = {
      id: 'r1',
      model: 'claude-sonnet-4-5',
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: 'Hm.', signature: 'sigA', origin: { protocol: 'claude' } },
            { type: 'reasoning', text: '', redacted: true, signature: 'blob', origin: { protocol: 'claude' } },
          ],
          finishReason: 'stop',
        },
      ],
    };
    const both = bothWays(value);
    const content = [{ reasoningContent: { reasoningText: { text: 'Hm.' } } }];
    expect((both.body as { output: { message: { content: unknown } } }).output.message.content).toEqual(content);
    expect((fold(both.events) as { output: { message: { content: unknown } } }).output.message.content).toEqual(content);
    const loss = {
      code: 'foreign-state',
      message: 'provider state issued by claude was not replayed to bedrock-converse (claude-sonnet-4-5)',
      protocol: 'bedrock-converse',
    };
    expect(both.bodyWarnings).toEqual([
      { ...loss, path: 'choices[0].content[0]' },
      { ...loss, path: 'choices[0].content[1]' },
    ]);
    expect(both.streamWarnings).toEqual([
      { ...loss, path: 'blocks[0]' },
      { ...loss, path: 'blocks[1]' },
    ]);
  });

  it('a code run is dropped by both paths with the same report, each part at its own path', () => {
    const origin = { protocol: 'claude' } as const;
    const content: LlmAssistantContent[] = [
      { type: 'code-execution', id: 'srvtoolu_1', language: 'python', code: 'print(1)', origin },
      { type: 'code-execution-result', callId: 'srvtoolu_1', outcome: 'ok', output: '1\n', origin },
      { type: 'text', text: 'One.' },
    ];
    const value: LlmResponse = { id: 'r1', model: 'anthropic.claude-sonnet-4-5', choices: [{ index: 0, content, finishReason: 'stop' }] };
    const both = bothWays(value);
    expect((both.body as { output: { message: { content: unknown } } }).output.message.content).toEqual([{ text: 'One.' }]);
    expect(fold(both.events)).toEqual(both.body);
    const loss = (what: string) => ({
      code: 'dropped-part',
      message: `a ${what} has no bedrock-converse form (Converse hosts no code execution)`,
      protocol: 'bedrock-converse',
    });
    expect(both.bodyWarnings).toEqual([
      { ...loss('code execution'), path: 'choices[0].content[0]' },
      { ...loss('code execution result'), path: 'choices[0].content[1]' },
    ]);
    expect(both.streamWarnings).toEqual([
      { ...loss('code execution'), path: 'blocks[0]' },
      { ...loss('code execution result'), path: 'blocks[1]' },
    ]);
  });

  it('another protocol’s item and an MCP part are dropped by both paths with the body’s report', () => {
    const content: LlmAssistantContent[] = [
      { type: 'provider', protocol: 'claude', value: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } } },
      { type: 'mcp-list-tools', id: 'mcpl_1', server: 'docs', tools: [] },
      { type: 'text', text: 'Hi' },
    ];
    const value: LlmResponse = { id: 'r1', model: 'anthropic.claude-sonnet-4-5', choices: [{ index: 0, content, finishReason: 'stop' }] };
    const both = bothWays(value);
    expect((both.body as { output: { message: { content: unknown } } }).output.message.content).toEqual([{ text: 'Hi' }]);
    expect(fold(both.events)).toEqual(both.body);
    const foreign = { code: 'dropped-part', message: 'a claude item has no Converse equivalent', protocol: 'bedrock-converse' };
    const mcp = {
      code: 'dropped-part',
      message: 'an MCP tool list has no bedrock-converse form (bedrock-converse hosts no MCP)',
      protocol: 'bedrock-converse',
    };
    expect(both.bodyWarnings).toEqual([
      { ...foreign, path: 'choices[0].content[0]' },
      { ...mcp, path: 'choices[0].content[1]' },
    ]);
    expect(both.streamWarnings).toEqual([
      { ...foreign, path: 'blocks[0]' },
      { ...mcp, path: 'blocks[1]' },
    ]);
  });

  it('an image by URL is dropped by both paths with the body’s report; an image’s bytes only by the stream, which has no block for them', () => {
    const content: LlmAssistantContent[] = [
      { type: 'image', source: { kind: 'url', url: 'https://example.com/chart.png' } },
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'text', text: 'Hi' },
    ];
    const value: LlmResponse = { id: 'r1', model: 'anthropic.claude-sonnet-4-5', choices: [{ index: 0, content, finishReason: 'stop' }] };
    const both = bothWays(value);
    expect((both.body as { output: { message: { content: unknown } } }).output.message.content).toEqual([
      { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } },
      { text: 'Hi' },
    ]);
    const byUrl = { code: 'dropped-part', message: 'Converse takes images as bytes, not by URL', protocol: 'bedrock-converse' };
    expect(both.bodyWarnings).toEqual([{ ...byUrl, path: 'choices[0].content[0]' }]);
    expect(both.streamWarnings).toEqual([
      { ...byUrl, path: 'blocks[0]' },
      { code: 'dropped-field', message: 'a generated image has no Converse stream block', path: 'blocks[1]', protocol: 'bedrock-converse' },
    ]);
  });
});
