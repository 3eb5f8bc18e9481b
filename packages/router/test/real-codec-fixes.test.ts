// Translation fixes of issue 7 checked end to end over the real codecs (the fake-codec tests in
// translation-fixes.test.ts check the canonical functions alone).
import { claude } from '@llm/claude';
import { LlmError, type LlmWarning } from '@llm/core';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { describe, expect, it } from 'vitest';
import { bridge } from '../src/bridge.js';
import { createHandler } from '../src/handler.js';

describe('translation fixes over the real codecs', () => {
  it('a system message in the middle of a Chat conversation reaches Claude as user text, reported', () => {
    const warnings: string[] = [];
    const via = bridge({ client: openaiChat, upstream: claude, warn: (warning: LlmWarning) => warnings.push(`${warning.code}@${warning.path}`) });
    const out = via.request({
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'system', content: 'Now answer in French.' },
        { role: 'user', content: 'c' },
      ],
    });
    expect(out.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: [{ type: 'text', text: 'Now answer in French.' }, { type: 'text', text: 'c' }] },
      ],
    });
    expect(warnings).toEqual(['lossy-conversion@messages[3]']);
  });

  it('tool_choice allowed keeps only the tools the target receives, reported', () => {
    const warnings: string[] = [];
    const via = bridge({ client: claude, upstream: openaiResponses, warn: (warning: LlmWarning) => warnings.push(`${warning.code}@${warning.path}`) });
    const read = { name: 'read', input_schema: { type: 'object' } };
    const out = via.request({
      model: 'gpt-4.1',
      max_tokens: 10,
      tools: [{ type: 'web_search_20250305', name: 'web_search' }, read],
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'a' }],
    }) as { body: Record<string, unknown> };
    // `any` names no tool: it stays forced (required) over the tools that remain.
    expect(out.body.tool_choice).toBe('required');
    expect(warnings).toEqual(['dropped-tool@tools[0]']);
  });

  it('strict mode: a loss becomes an unsupported error in the client shape before anything is sent', async () => {
    let called = false;
    const handler = createHandler({
      strict: true,
      codecs: { 'openai-chat': openaiChat, 'openai-responses': openaiResponses },
      upstreams: { responses: { protocol: 'openai-responses', baseUrl: 'http://upstream.test/v1', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'responses' }],
      transport: async () => {
        called = true;
        return new Response('{}');
      },
    });
    const response = await handler(
      new Request('http://router.test/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'a' }], stop: ['x'] }),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { message: 'stop: Responses has no stop sequences', type: 'invalid_request_error', param: 'stop', code: 'dropped-field' },
    });
    expect(called).toBe(false);

    // The bridge alone throws the same way.
    const strictBridge = bridge({ client: openaiChat, upstream: openaiResponses, strict: true });
    expect(() => strictBridge.request({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'a' }], stop: ['x'] })).toThrowError(LlmError);
  });
});
