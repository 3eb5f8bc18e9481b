import { describe, expect, it } from 'vitest';
import type { RequestRecord, RouterConfig } from '../src/config.js';
import { DIAGNOSTIC_PREVIEW_CHARS, diagnosticPreview } from '../src/diagnostics.js';
import { createHandler } from '../src/handler.js';

// The debug diagnostics of a request (RouterConfig.diagnostics): route rule, upstream status and
// calls, tool-call and tool-result previews, capped and with secrets masked.

describe('diagnostic previews', () => {
  it('mask credentials, fold whitespace and cap the length', () => {
    expect(diagnosticPreview('OPENAI_API_KEY=sk-proj-abcdef1234567890\nAuthorization: Bearer eyJhbGciOi.x')).toBe('OPENAI_[redacted] [redacted]');
    expect(diagnosticPreview('curl -H "x: Bearer abc.def-123"')).toBe('curl -H "x: [redacted]"');
    expect(diagnosticPreview('key sk-ant-api03-abcdefghijk, aws AKIAABCDEFGHIJKLMNOP, gh ghp_abcdefghijklmnopqrstuv')).toBe(
      'key [redacted], aws [redacted], gh [redacted]',
    );
    expect(diagnosticPreview('{"password": "hunter2", "user": "ann"}')).toBe('{"[redacted]", "user": "ann"}');
    const long = diagnosticPreview('x'.repeat(10_000));
    expect(long).toBe(`${'x'.repeat(DIAGNOSTIC_PREVIEW_CHARS - 1)}…`);
  });
});

describe('request diagnostics through the handler', () => {
  const chatAnswer = {
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-up',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'Read', arguments: '{"file_path":".env"}' } }],
        },
        finish_reason: 'tool_calls',
      },
    ],
  };
  const body = JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    tools: [{ name: 'Read', input_schema: { type: 'object' } }],
    messages: [
      { role: 'user', content: 'read the config' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'Read', input: { file_path: 'config.yaml' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'apiKey: sk-live-0123456789abcdef\nport: 8080' }] },
    ],
  });

  async function recorded(config: Partial<RouterConfig>, statuses: number[]) {
    const records: RequestRecord[] = [];
    let calls = 0;
    const handler = createHandler({
      upstreams: { up: { protocol: 'openai-chat', baseUrl: 'http://up.test/v1', apiKey: 'sk-upstream-secret-key' } },
      routes: [{ match: 'claude-*', upstream: 'up', model: 'gpt-up' }],
      retryBaseDelayMs: 1,
      hooks: { onRequestEnd: (record) => records.push(record) },
      transport: async () => {
        const status = statuses[calls++] ?? 200;
        return new Response(status === 200 ? JSON.stringify(chatAnswer) : '{"error":{"message":"busy"}}', {
          status,
          headers: { 'content-type': 'application/json' },
        });
      },
      ...config,
    });
    const response = await handler(
      new Request('http://router.test/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body,
      }),
    );
    await response.text();
    return records[0] as RequestRecord;
  }

  it('on: rule, upstream status and calls, tool calls with previews; no secret appears', async () => {
    const record = await recorded({ diagnostics: true, maxRetries: 1 }, [503, 200]);
    expect(record.diagnostics).toEqual({
      rule: 'claude-*',
      attempts: 2,
      upstreamStatus: 200,
      toolCalls: 1,
      toolCallPreviews: ['Read({"file_path":".env"})'],
      toolResultPreviews: ['[redacted] port: 8080'],
    });
    expect(JSON.stringify(record)).not.toContain('sk-');
  });

  it('off (the default): no diagnostics', async () => {
    expect((await recorded({}, [200])).diagnostics).toBeUndefined();
  });
});

describe('request diagnostics of a streamed answer', () => {
  it('counts the streamed tool calls and previews their arguments', async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-up', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const sse = [
      chunk({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'Grep', arguments: '{"pattern":' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"TODO"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a.ts"}' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ].join('');
    const records: RequestRecord[] = [];
    const handler = createHandler({
      upstreams: { up: { protocol: 'openai-chat', baseUrl: 'http://up.test/v1', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up', model: 'gpt-up' }],
      diagnostics: true,
      hooks: { onRequestEnd: (record) => records.push(record) },
      transport: async () => new Response(sse, { headers: { 'content-type': 'text/event-stream' } }),
    });
    const response = await handler(
      new Request('http://router.test/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({
          model: 'claude-x',
          max_tokens: 64,
          stream: true,
          tools: [
            { name: 'Grep', input_schema: { type: 'object' } },
            { name: 'Read', input_schema: { type: 'object' } },
          ],
          messages: [{ role: 'user', content: 'find todos' }],
        }),
      }),
    );
    await response.text();
    expect(records[0]?.diagnostics).toEqual({
      rule: '*',
      attempts: 1,
      upstreamStatus: 200,
      toolCalls: 2,
      toolCallPreviews: ['Grep({"pattern":"TODO"})', 'Read({"file_path":"a.ts"})'],
      toolResultPreviews: [],
    });
  });
});
