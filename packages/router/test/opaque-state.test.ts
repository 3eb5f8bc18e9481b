import { embedOpaqueState, packOpaqueState, type LlmRequest, type LlmResponse, type LlmStreamEvent, type LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { bridge } from '../src/bridge.js';
import { openRequestState } from '../src/open-state.js';
import { sealResponse } from '../src/seal-state.js';
import { bytesOf, fakeCodec, fakeSse, parseFakeSse, textOf } from './fake-codec.js';

const claudeOrigin = { protocol: 'claude' as const, model: 'claude-x' };
const geminiOrigin = { protocol: 'gemini' as const };

function claudeToolTurn(): LlmResponse {
  return {
    id: 'msg_1',
    model: 'claude-x',
    choices: [
      {
        index: 0,
        finishReason: 'tool_calls',
        content: [
          { type: 'reasoning', text: 'I should read it.', signature: 'SIG_A', origin: claudeOrigin },
          { type: 'reasoning', text: '', redacted: true, signature: 'REDACTED_B', origin: claudeOrigin },
          { type: 'tool-call', id: 'toolu_1', name: 'read', arguments: { path: 'a' } },
        ],
      },
    ],
  };
}

describe('opaque state for Chat clients', () => {
  it('REGRESSIONS #4: Claude thinking before a tool call rides in the Chat tool-call id and comes back whole', () => {
    const sealed = sealResponse(claudeToolTurn(), 'openai-chat');
    const content = sealed.choices[0]?.content ?? [];
    const call = content[2] as { id: string };
    expect(call.id).toBe(
      embedOpaqueState('toolu_1', {
        origin: claudeOrigin,
        data: {
          reasoning: [
            { text: 'I should read it.', signature: 'SIG_A' },
            { text: '', signature: 'REDACTED_B', redacted: true },
          ],
        },
      }),
    );
    expect(content[0]).toEqual({ type: 'reasoning', text: 'I should read it.' });

    // The Chat client echoes the assistant turn (maybe with unsigned reasoning text) and the tool result.
    const next: LlmRequest = {
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'I should read it.' },
            { type: 'tool-call', id: call.id, name: 'read', arguments: '{"path":"a"}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: call.id, content: 'file a' }] },
      ],
    };
    const opened = openRequestState(next);
    expect(opened.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'I should read it.', signature: 'SIG_A', origin: claudeOrigin },
        { type: 'reasoning', text: '', signature: 'REDACTED_B', redacted: true, origin: claudeOrigin },
        { type: 'tool-call', id: 'toolu_1', name: 'read', arguments: '{"path":"a"}' },
      ],
    });
    expect(opened.messages[2]).toEqual({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', content: 'file a' }] });
  });

  it('REGRESSIONS #2: a streamed Gemini thoughtSignature on a function call survives a Chat client in the call id', async () => {
    const events: LlmStreamEvent[] = [
      { type: 'start', id: 'g1', model: 'gemini-3' },
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'fc_1', name: 'read', signature: 'THOUGHT_SIG', origin: geminiOrigin } },
      { type: 'tool-args-delta', index: 0, json: '{"path":"a"}' },
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
    ];
    const out = parseFakeSse(await textOf(bridge({ client: fakeCodec('openai-chat'), upstream: fakeCodec('gemini') }).stream(bytesOf(fakeSse(events)))));
    const id = embedOpaqueState('fc_1', { origin: geminiOrigin, data: { signature: 'THOUGHT_SIG' } });
    expect(out[1]).toEqual({ type: 'block-start', index: 0, block: { kind: 'tool_call', id, name: 'read' } });
    const opened = openRequestState({
      model: 'm',
      messages: [{ role: 'assistant', content: [{ type: 'tool-call', id, name: 'read', arguments: '{"path":"a"}' }] }],
    });
    expect(opened.messages[0]?.content[0]).toEqual({
      type: 'tool-call',
      id: 'fc_1',
      name: 'read',
      arguments: '{"path":"a"}',
      signature: 'THOUGHT_SIG',
      origin: geminiOrigin,
    });
  });

  it('streamed Claude reasoning preceding a tool call rides in the call id for Chat clients', async () => {
    const events: LlmStreamEvent[] = [
      { type: 'start', id: 'm1' },
      { type: 'block-start', index: 0, block: { kind: 'reasoning', origin: claudeOrigin } },
      { type: 'reasoning-delta', index: 0, text: 'think' },
      { type: 'reasoning-signature', index: 0, signature: 'SIG', origin: claudeOrigin },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'toolu_9', name: 't' } },
      { type: 'block-end', index: 1 },
      { type: 'finish', reason: 'tool_calls' },
    ];
    const out = parseFakeSse(await textOf(bridge({ client: fakeCodec('openai-chat'), upstream: fakeCodec('claude') }).stream(bytesOf(fakeSse(events)))));
    expect(out.map((e) => (e as { type: string }).type)).toEqual([
      'start',
      'block-start',
      'reasoning-delta',
      'block-end',
      'block-start',
      'block-end',
      'finish',
    ]);
    expect(out[1]).toEqual({ type: 'block-start', index: 0, block: { kind: 'reasoning' } });
    expect(out[4]).toEqual({
      type: 'block-start',
      index: 1,
      block: {
        kind: 'tool_call',
        name: 't',
        id: embedOpaqueState('toolu_9', { origin: claudeOrigin, data: { reasoning: [{ text: 'think', signature: 'SIG' }] } }),
      },
    });
  });
});

describe('opaque state for clients with a native field', () => {
  it('REGRESSIONS #22: Gemini signatures shown to a Claude client are sealed, and are never replayed to Claude', () => {
    const response: LlmResponse = {
      id: 'g',
      model: 'gemini-3',
      choices: [{ index: 0, content: [{ type: 'reasoning', text: 'hmm', signature: 'GEM_SIG', origin: geminiOrigin }] }],
    };
    const sealed = sealResponse(response, 'claude');
    const carrier = packOpaqueState({ origin: geminiOrigin, data: 'GEM_SIG' });
    expect(sealed.choices[0]?.content[0]).toEqual({ type: 'reasoning', text: 'hmm', signature: carrier });

    // Turn 2 goes to a Claude upstream: the Gemini state is opened, then dropped by the Claude encoder.
    const warnings: LlmWarning[] = [];
    const out = bridge({ client: fakeCodec('claude'), upstream: fakeCodec('claude'), warn: (w) => warnings.push(w), transformRequest: (r) => r }).request({
      model: 'claude-x',
      messages: [{ role: 'assistant', content: [{ type: 'reasoning', text: 'hmm', signature: carrier, origin: { protocol: 'claude' } }] }],
    });
    expect((out.body as LlmRequest).messages[0]?.content[0]).toEqual({ type: 'reasoning', text: 'hmm' });
    // No `defaulted` max_tokens: that default is the real Claude encoder's, not the router's (issue 18).
    expect(warnings.map((w) => w.code)).toEqual(['foreign-state']);
  });

  it('REGRESSIONS #3: Responses encrypted reasoning seen by a Claude client comes back to the Responses upstream', () => {
    const origin = { protocol: 'openai-responses' as const, model: 'o3' };
    const sealed = sealResponse(
      { id: 'r', model: 'o3', choices: [{ index: 0, content: [{ type: 'reasoning', id: 'rs_1', text: 'sum', format: 'summary', signature: 'ENC', origin }] }] },
      'claude',
    );
    const part = sealed.choices[0]?.content[0] as { signature: string };
    const opened = openRequestState({
      model: 'o3',
      messages: [{ role: 'assistant', content: [{ type: 'reasoning', text: 'sum', signature: part.signature, origin: { protocol: 'claude' } }] }],
    });
    // The item id and text form come back too: Responses replays reasoning items by id.
    expect(opened.messages[0]?.content[0]).toEqual({ type: 'reasoning', text: 'sum', signature: 'ENC', origin, id: 'rs_1', format: 'summary' });
  });

  it('a Claude thinking block streamed to a Gemini client as several thought parts is replayed to Claude as one signed block', () => {
    const carrier = packOpaqueState({ origin: claudeOrigin, data: 'SIG_A' });
    const second = packOpaqueState({ origin: claudeOrigin, data: 'SIG_B' });
    // As @google/genai's chat history keeps a stream: one part per chunk, the signature on a trailing empty part.
    const opened = openRequestState({
      model: 'm',
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'I should ', origin: geminiOrigin },
            { type: 'reasoning', text: 'read it.', origin: geminiOrigin },
            { type: 'reasoning', text: '', signature: carrier, origin: geminiOrigin },
            { type: 'reasoning', text: 'Then answer.', origin: geminiOrigin },
            { type: 'reasoning', text: '', signature: second, origin: geminiOrigin },
            { type: 'tool-call', id: 'c1', name: 'read', arguments: {} },
          ],
        },
      ],
    });
    expect(opened.messages[0]?.content).toEqual([
      { type: 'reasoning', text: 'I should read it.', signature: 'SIG_A', origin: claudeOrigin },
      { type: 'reasoning', text: 'Then answer.', signature: 'SIG_B', origin: claudeOrigin },
      { type: 'tool-call', id: 'c1', name: 'read', arguments: {} },
    ]);
  });

  it("a Gemini upstream's own unsigned thought parts are not joined (no carrier was opened)", () => {
    const content = [
      { type: 'reasoning' as const, text: 'a', origin: geminiOrigin },
      { type: 'reasoning' as const, text: '', signature: 'GEM_SIG', origin: geminiOrigin },
    ];
    const opened = openRequestState({ model: 'm', messages: [{ role: 'assistant', content: structuredClone(content) }] });
    expect(opened.messages[0]?.content).toEqual(content);
  });

  it("Gemini's skip_thought_signature_validator sentinel is not state: it never reaches another upstream", () => {
    const opened = openRequestState({
      model: 'm',
      messages: [
        {
          role: 'assistant',
          content: [{ type: 'tool-call', id: 'c1', name: 'read', arguments: {}, signature: 'skip_thought_signature_validator', origin: geminiOrigin }],
        },
      ],
    });
    expect(opened.messages[0]?.content).toEqual([{ type: 'tool-call', id: 'c1', name: 'read', arguments: {} }]);
  });

  it('a corrupt carrier is cut off and reported as invalid-state', () => {
    const warnings: LlmWarning[] = [];
    const bad = `${packOpaqueState({ origin: geminiOrigin, data: 'x' }).slice(0, -1)}0`;
    const opened = openRequestState(
      {
        model: 'm',
        messages: [
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 't', signature: bad },
              { type: 'tool-call', id: `call_1__${bad}`, name: 'n', arguments: '{}' },
            ],
          },
        ],
      },
      { warn: (w) => warnings.push(w) },
    );
    expect(opened.messages[0]?.content).toEqual([
      { type: 'reasoning', text: 't' },
      { type: 'tool-call', id: 'call_1', name: 'n', arguments: '{}' },
    ]);
    expect(warnings.map((w) => w.code)).toEqual(['invalid-state', 'invalid-state']);
  });
});
