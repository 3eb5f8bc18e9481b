// Entries of /work/shared/REGRESSIONS.md whose fix lives in the Claude codec (the others are
// router policies: R15 finish reason with tool calls, R20 one open block, R34 empty content).
import { accumulateEvents, decodeSse, responseToEvents, type LlmResponse, type LlmStreamEvent, type LlmWarning, type SseEvent } from '@llm/core';
import { byteAtATime, collect, streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

const tool = { type: 'function' as const, name: 'f', parameters: { type: 'object', properties: {} } };

function encodeStream(events: LlmStreamEvent[], warnings: LlmWarning[] = []): Promise<SseEvent[]> {
  return collect(streamOf(events).pipeThrough(claude.stream.encode({ warn: (warning) => warnings.push(warning) })));
}

function decodeStream(events: SseEvent[]): Promise<LlmStreamEvent[]> {
  return collect(streamOf(events).pipeThrough(claude.stream.decode()));
}

const sse = (data: Record<string, unknown>): SseEvent => ({ event: data.type as string, data: JSON.stringify(data), id: undefined });

describe('REGRESSIONS', () => {
  it('R1 litellm#13373: every content_block_delta / stop names an index opened by a content_block_start', async () => {
    const response: LlmResponse = {
      id: 'msg_r1',
      model: 'm',
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: 'plan', signature: 'sig', origin: { protocol: 'claude' } },
            { type: 'text', text: 'Calling.' },
            { type: 'tool-call', id: 'toolu_a', name: 'f', arguments: { x: 1 } },
            { type: 'tool-call', id: 'toolu_b', name: 'f', arguments: {} },
          ],
          finishReason: 'tool_calls',
        },
      ],
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
    };
    const wire = await encodeStream(responseToEvents(response));
    const open = new Set<number>();
    const started: number[] = [];
    for (const event of wire) {
      const data = JSON.parse(event.data) as { type: string; index?: number };
      expect(event.event).toBe(data.type);
      if (data.type === 'content_block_start') {
        expect(open.has(data.index!)).toBe(false);
        open.add(data.index!);
        started.push(data.index!);
      } else if (data.type === 'content_block_delta') expect(open.has(data.index!)).toBe(true);
      else if (data.type === 'content_block_stop') expect(open.delete(data.index!)).toBe(true);
    }
    expect(started).toEqual([0, 1, 2, 3]);
    expect(open.size).toBe(0);
  });

  it('R11 litellm#6456: parallelToolCalls false becomes disable_parallel_tool_use, and back', () => {
    const body = claude.request.encode({
      model: 'm',
      maxOutputTokens: 10,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
      tools: [tool],
      parallelToolCalls: false,
    });
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    const request = claude.request.decode(body);
    expect(request.parallelToolCalls).toBe(false);
    expect(request.toolChoice).toEqual({ type: 'auto' });
  });

  it('R12 litellm#13252: /v1/messages/count_tokens?beta=true is the count-tokens operation', () => {
    expect(claude.http.matchRequest('POST', new URL('http://gw/v1/messages/count_tokens?beta=true'))).toEqual({ operation: 'count-tokens' });
    expect(claude.http.matchRequest('POST', new URL('http://gw/v1/messages?beta=true'))).toEqual({ operation: 'generate' });
    expect(claude.http.buildRequest({ baseUrl: 'https://api.anthropic.com', model: 'm', stream: false, operation: 'count-tokens' }).url).toBe(
      'https://api.anthropic.com/v1/messages/count_tokens',
    );
  });

  it('R22 CLIProxyAPI#1584: thinking signed by another protocol is never replayed to Claude', () => {
    const warnings: LlmWarning[] = [];
    const body = claude.request.encode(
      {
        model: 'm',
        maxOutputTokens: 10,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'gemini thought', signature: 'Gsig', origin: { protocol: 'gemini' } },
              { type: 'reasoning', text: 'claude thought', signature: 'Csig', origin: { protocol: 'claude' } },
              { type: 'text', text: 'a' },
            ],
          },
          { role: 'user', content: [{ type: 'text', text: 'q2' }] },
        ],
      },
      { warn: (warning) => warnings.push(warning) },
    );
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'claude thought', signature: 'Csig' },
        { type: 'text', text: 'a' },
      ],
    });
    expect(warnings.map(({ code, path }) => [code, path])).toEqual([['foreign-state', 'messages[1].content[0]']]);
  });

  it('R31 / R32 CCR#198, PR#1672: a data line and a multi-byte character split across chunks decode intact', async () => {
    const text = 'héllo wörld — 日本語 🙂';
    const wire = [
      sse({
        type: 'message_start',
        message: {
          id: 'msg_u',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 0 },
        },
      }),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
      sse({ type: 'content_block_stop', index: 0 }),
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }),
      sse({ type: 'message_stop' }),
    ];
    const bytes = new TextEncoder().encode(wire.map((event) => `event: ${event.event}\ndata: ${event.data}\n\n`).join(''));
    const events = await decodeStream(await collect(decodeSse(streamOf(byteAtATime(bytes)))));
    expect(accumulateEvents(events).choices[0]!.content).toEqual([{ type: 'text', text }]);
  });

  it('R38 new-api#2763 / R41 Portkey#1474: tool_choice none is {type:"none"}, with no parallel flag', () => {
    const body = claude.request.encode({
      model: 'm',
      maxOutputTokens: 10,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
      tools: [tool],
      toolChoice: { type: 'none' },
      parallelToolCalls: false,
    });
    expect(body.tool_choice).toEqual({ type: 'none' });
    expect(claude.request.decode(body).toolChoice).toEqual({ type: 'none' });
  });

  it('R46 vercel/ai#17326: input tokens from message_start survive a message_delta that only has output tokens', async () => {
    const events = await decodeStream([
      sse({
        type: 'message_start',
        message: {
          id: 'msg_46',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 25, cache_read_input_tokens: 5, output_tokens: 1 },
        },
      }),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } }),
      sse({ type: 'content_block_stop', index: 0 }),
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 10 } }),
      sse({ type: 'message_stop' }),
    ]);
    const usage = accumulateEvents(events).usage!;
    expect([usage.inputTokens, usage.cacheReadTokens, usage.outputTokens, usage.totalTokens]).toEqual([30, 5, 10, 40]);
  });

  it('R50 envoy#1953: tools without type decode as function tools; each tool_result becomes its own tool message', () => {
    const request = claude.request.decode({
      model: 'm',
      max_tokens: 5,
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'f', input: {} },
            { type: 'tool_use', id: 't2', name: 'f', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'a' },
            { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'b' }], is_error: true },
          ],
        },
      ],
    });
    expect(request.tools).toEqual([{ type: 'function', name: 'f', parameters: { type: 'object' } }]);
    expect(request.messages.slice(1)).toEqual([
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', content: 'a' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't2', content: [{ type: 'text', text: 'b' }], isError: true }] },
    ]);
  });
});
