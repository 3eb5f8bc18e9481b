import type { LlmMessage, LlmRequest, LlmResponse, LlmStreamEvent, LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { bridge } from '../src/bridge.js';
import { fixRequestForTarget, mergeSameRoleTurns, orderToolResults } from '../src/request-fixes.js';
import { targetToolName } from '../src/tool-adaptation.js';
import { bytesOf, fakeCodec, fakeSse, parseFakeSse, textOf } from './fake-codec.js';

const user = (text: string): LlmMessage => ({ role: 'user', content: [{ type: 'text', text }] });

describe('request fixes', () => {
  it('merges consecutive same-role turns for alternating targets', () => {
    expect(
      mergeSameRoleTurns([user('a'), { ...user('b'), stringContent: true } as LlmMessage, { role: 'assistant', content: [{ type: 'text', text: 'c' }] }]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'c' }] },
    ]);
  });

  it('moves tool results right after the turn that called them', () => {
    const call: LlmMessage = { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 't', arguments: '{}' }] };
    const result: LlmMessage = { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', content: 'ok' }] };
    expect(orderToolResults([call, user('note'), result])).toEqual([call, result, user('note')]);
  });

  it('n > 1 on a target without candidates is sent as one, with a warning', () => {
    const warnings: LlmWarning[] = [];
    const out = fixRequestForTarget({ model: 'm', messages: [], candidateCount: 3, maxOutputTokens: 10 }, 'claude', { warn: (w) => warnings.push(w) });
    expect(out.candidateCount).toBeUndefined();
    expect(warnings).toEqual([{ code: 'dropped-field', path: 'n', message: 'claude returns one candidate per request; n=3 sent as 1' }]);
    expect(fixRequestForTarget({ model: 'm', messages: [], candidateCount: 3 }, 'gemini').candidateCount).toBe(3);
  });

  it('REGRESSIONS #7: images inside tool results move to a user message for Chat targets', () => {
    const warnings: LlmWarning[] = [];
    const image = { type: 'image' as const, source: { kind: 'base64' as const, mediaType: 'image/png', data: 'AAAA' } };
    const out = fixRequestForTarget(
      {
        model: 'm',
        messages: [
          { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'shot', arguments: '{}' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'see' }, image] }] },
        ],
      },
      'openai-chat',
      { warn: (w) => warnings.push(w) },
    );
    expect(out.messages.slice(1)).toEqual([
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'see' }] }] },
      { role: 'user', content: [{ type: 'text', text: 'Attachments of tool result c1:' }, image] },
    ]);
    expect(warnings.map((w) => w.code)).toEqual(['lossy-conversion']);
  });
});

describe('tool adaptation', () => {
  it('renames tools the target rejects and maps calls back', () => {
    expect(targetToolName('mcp/read file', 'claude')).toBe('mcp_read_file');
    expect(targetToolName('9lives', 'gemini')).toBe('_9lives');
    expect(targetToolName('a'.repeat(80), 'openai-chat')).toHaveLength(64);
    const via = bridge({ client: fakeCodec('openai-chat'), upstream: fakeCodec('claude') });
    const exchange = via.request({
      model: 'm',
      maxOutputTokens: 5,
      tools: [{ type: 'function', name: 'mcp/read' }],
      toolChoice: { type: 'tool', name: 'mcp/read' },
      messages: [{ role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 'mcp/read', arguments: '{}' }] }],
    });
    const sent = exchange.body as LlmRequest;
    expect(sent.tools).toEqual([{ type: 'function', name: 'mcp_read' }]);
    expect(sent.toolChoice).toEqual({ type: 'tool', name: 'mcp_read' });
    expect(sent.messages[0]?.content[0]).toMatchObject({ name: 'mcp_read' });
    const answer: LlmResponse = {
      id: 'r',
      model: 'm',
      choices: [{ index: 0, finishReason: 'tool_calls', content: [{ type: 'tool-call', id: 'x', name: 'mcp_read', arguments: {} }] }],
    };
    expect((exchange.answers.response(answer) as LlmResponse).choices[0]?.content[0]).toMatchObject({ name: 'mcp/read' });
  });

  it('freeform custom tools become { input } functions on Claude and come back freeform, streamed too', async () => {
    const via = bridge({ client: fakeCodec('openai-responses'), upstream: fakeCodec('claude') });
    const exchange = via.request({
      model: 'm',
      maxOutputTokens: 5,
      tools: [{ type: 'custom', name: 'apply_patch', description: 'patch' }],
      messages: [{ role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 'apply_patch', arguments: '*** Begin', freeform: true }] }],
    });
    const sent = exchange.body as LlmRequest;
    expect(sent.tools).toEqual([
      {
        type: 'function',
        name: 'apply_patch',
        description: 'patch',
        parameters: { type: 'object', properties: { input: { type: 'string', description: 'The raw tool input.' } }, required: ['input'] },
      },
    ]);
    expect(sent.messages[0]?.content[0]).toEqual({ type: 'tool-call', id: 'c', name: 'apply_patch', arguments: { input: '*** Begin' } });
    const events: LlmStreamEvent[] = [
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'c2', name: 'apply_patch' } },
      { type: 'tool-args-delta', index: 0, json: '{"input":"*** ' },
      { type: 'tool-args-delta', index: 0, json: 'End"}' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
    ];
    expect(parseFakeSse(await textOf(exchange.answers.stream(bytesOf(fakeSse(events)))))).toEqual([
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'c2', name: 'apply_patch', freeform: true } },
      { type: 'tool-args-delta', index: 0, json: '*** End' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });
});
