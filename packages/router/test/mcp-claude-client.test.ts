// A real Claude client's MCP connector request (`mcp_servers` + `mcp_toolset`) against a real
// Gemini upstream, which cannot host MCP: the router runs the loop and the client gets the blocks
// Claude sends (`mcp_tool_use`, `mcp_tool_result`), JSON and streamed, usage summed.
import { describe, expect, it } from 'vitest';
import { defaultCodecs } from '../src/registry.js';
import { DOCS_TOOLS, fakeHost, replyText, scriptedRouter } from './mcp-fakes.js';
import { answer } from './upstream-answer.js';

const candidate = (parts: unknown[], finishReason: string) => ({ content: { role: 'model', parts }, index: 0, finishReason });
const FIRST = {
  candidates: [candidate([{ text: 'Looking.' }, { functionCall: { name: 'mcp__docs__search', args: { q: 'x' } } }], 'STOP')],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  modelVersion: 'gemini-x',
  responseId: 'g1',
};
const SECOND = {
  candidates: [candidate([{ text: 'Found.' }], 'STOP')],
  usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 7, totalTokenCount: 37 },
  modelVersion: 'gemini-x',
  responseId: 'g2',
};
const CLAUDE_REQUEST = {
  model: 'm',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'find x' }],
  mcp_servers: [{ type: 'url', url: 'https://mcp.example/mcp', name: 'docs' }],
  tools: [{ type: 'mcp_toolset', mcp_server_name: 'docs' }],
};
const CLAUDE_HEADERS = { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'mcp-client-2025-11-20' };
const USAGE = { input_tokens: 40, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function claudeRouter(stream: boolean) {
  const host = fakeHost({ docs: DOCS_TOOLS });
  const turn = (body: unknown) =>
    stream ? answer(200, 'text/event-stream', [`data: ${JSON.stringify(body)}\n\n`]) : answer(200, 'application/json', [JSON.stringify(body)]);
  const scripted = scriptedRouter(
    {
      codecs: defaultCodecs(),
      upstreams: { up: { protocol: 'gemini', baseUrl: 'http://up.test', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up' }],
      mcp: { host },
    },
    [turn(FIRST), turn(SECOND)],
  );
  return { ...scripted, host };
}

describe('a Claude client with MCP servers, served by a Gemini upstream', () => {
  it('JSON: text, mcp_tool_use, mcp_tool_result, text; usage summed; the tool list (no Claude block) reported', async () => {
    const { call, bodies, records, host } = claudeRouter(false);
    const reply = await call('/v1/messages', CLAUDE_REQUEST, CLAUDE_HEADERS);
    expect(reply.status).toBe(200);
    expect(JSON.parse(await replyText(reply))).toEqual({
      id: 'g1',
      type: 'message',
      role: 'assistant',
      model: 'gemini-x',
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'mcp_tool_use', id: 'call_g1_0', name: 'search', server_name: 'docs', input: { q: 'x' } },
        { type: 'mcp_tool_result', tool_use_id: 'call_g1_0', content: 'search({"q":"x"})', is_error: false },
        { type: 'text', text: 'Found.' },
      ],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: USAGE,
    });
    expect(bodies()[1]?.contents).toEqual([
      { role: 'user', parts: [{ text: 'find x' }] },
      { role: 'model', parts: [{ text: 'Looking.' }, { functionCall: { name: 'mcp__docs__search', args: { q: 'x' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'mcp__docs__search', response: { output: 'search({"q":"x"})' }, id: 'call_g1_0' } }] },
    ]);
    expect(host.seen.map((seen) => `${seen.op} ${seen.server} ${seen.source}`)).toEqual(['list docs client', 'call docs client']);
    expect(records[0]?.warnings.map((warning) => `${warning.code}@${warning.path}`)).toEqual(['dropped-part@choices[0].content[0]']);
  });

  it('streamed: one message_start, the MCP blocks between the turns’ text, one message_delta with the summed usage', async () => {
    const { call } = claudeRouter(true);
    const reply = await call('/v1/messages', { ...CLAUDE_REQUEST, stream: true }, CLAUDE_HEADERS);
    const events = (await replyText(reply))
      .split('\n\n')
      .filter((block) => block.includes('data: '))
      .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Record<string, unknown>);
    expect(events).toEqual([
      {
        type: 'message_start',
        message: {
          id: 'g1',
          type: 'message',
          role: 'assistant',
          model: 'gemini-x',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Looking.' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'mcp_tool_use', id: 'call_g1_0', name: 'search', server_name: 'docs', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"q":"x"}' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'mcp_tool_result', tool_use_id: 'call_g1_0', content: 'search({"q":"x"})', is_error: false },
      },
      { type: 'content_block_stop', index: 2 },
      { type: 'content_block_start', index: 3, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'Found.' } },
      { type: 'content_block_stop', index: 3 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: USAGE },
      { type: 'message_stop' },
    ]);
  });
});
