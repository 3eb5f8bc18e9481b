// A real Responses client's hosted-MCP request against a real Chat upstream, which cannot host
// MCP: the router runs the loop and the client gets the items OpenAI sends (`mcp_list_tools`,
// `mcp_call`, `mcp_approval_request`), JSON and streamed, and resumes an approval by
// `previous_response_id` with an `mcp_approval_response` input item.
import { describe, expect, it } from 'vitest';
import { defaultCodecs } from '../src/registry.js';
import { DOCS_TOOLS, fakeHost, replyText, scriptedRouter } from './mcp-fakes.js';
import { answer } from './upstream-answer.js';

const json = (body: unknown) => answer(200, 'application/json', [JSON.stringify(body)]);
const chat = (id: string, message: unknown, finish: string, prompt: number, completion: number) =>
  json({
    id,
    object: 'chat.completion',
    created: 1,
    model: 'gpt-x',
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  });
const callSearch = (id: string, q: string) =>
  chat(
    id,
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `call_${id}`, type: 'function', function: { name: 'mcp__docs__search', arguments: `{"q":"${q}"}` } }],
    },
    'tool_calls',
    10,
    5,
  );
const say = (id: string, text: string) => chat(id, { role: 'assistant', content: text }, 'stop', 30, 7);

const MCP_TOOL = { type: 'mcp', server_label: 'docs', server_url: 'https://mcp.example/mcp', require_approval: 'never' };
const LIST_ITEM = {
  type: 'mcp_list_tools',
  id: expect.stringMatching(/^mcpl_[0-9a-f]{32}$/),
  server_label: 'docs',
  tools: [
    { name: 'search', input_schema: DOCS_TOOLS[0]?.inputSchema, description: 'Search the docs' },
    { name: 'fetch', input_schema: DOCS_TOOLS[1]?.inputSchema, description: 'Fetch a page' },
  ],
};
const USAGE = {
  input_tokens: 40,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 52,
};

function responsesRouter(answers: Parameters<typeof scriptedRouter>[1]) {
  const host = fakeHost({ docs: DOCS_TOOLS });
  const scripted = scriptedRouter(
    {
      codecs: defaultCodecs(),
      upstreams: { up: { protocol: 'openai-chat', baseUrl: 'http://up.test', apiKey: 'k' } },
      routes: [{ match: '*', upstream: 'up' }],
      mcp: { host },
    },
    answers,
  );
  return { ...scripted, host };
}

/** The `data` of each SSE event. */
function sseData(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Record<string, unknown>);
}

describe('a Responses client with a hosted MCP tool, served by a Chat upstream', () => {
  it('JSON: mcp_list_tools, mcp_call with its output, then the message; usage summed', async () => {
    const { call } = responsesRouter([callSearch('c1', 'x'), say('c2', 'Found.')]);
    const reply = await call('/v1/responses', { model: 'm', input: 'find x', tools: [MCP_TOOL] });
    expect(reply.status).toBe(200);
    const body = JSON.parse(await replyText(reply)) as { id: string; status: string; output: unknown[]; usage: unknown };
    expect(body.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(body.status).toBe('completed');
    expect(body.output).toEqual([
      LIST_ITEM,
      { type: 'mcp_call', id: 'call_c1', server_label: 'docs', name: 'search', arguments: '{"q":"x"}', output: 'search({"q":"x"})', status: 'completed' },
      {
        type: 'message',
        id: `msg_${body.id.slice(5)}_3`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Found.', annotations: [] }],
      },
    ]);
    expect(body.usage).toEqual(USAGE);
  });

  it('streamed: one response.created, the MCP items as they happen, one response.completed', async () => {
    const { call } = responsesRouter([callSearch('c1', 'x'), say('c2', 'Found.')]);
    const reply = await call('/v1/responses', { model: 'm', input: 'find x', tools: [MCP_TOOL], stream: true });
    const events = sseData(await replyText(reply));
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.mcp_list_tools.in_progress',
      'response.mcp_list_tools.completed',
      'response.output_item.done',
      'response.output_item.added',
      'response.mcp_call.in_progress',
      'response.mcp_call_arguments.delta',
      'response.mcp_call_arguments.done',
      'response.mcp_call.completed',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const completed = events.at(-1)?.response as { output: unknown[]; usage: unknown };
    expect(completed.output.slice(0, 2)).toEqual([
      LIST_ITEM,
      { type: 'mcp_call', id: 'call_c1', server_label: 'docs', name: 'search', arguments: '{"q":"x"}', output: 'search({"q":"x"})', status: 'completed' },
    ]);
    expect(completed.usage).toEqual(USAGE);
  });

  it('approval: an mcp_approval_request, then an mcp_approval_response with previous_response_id runs the call; another key gets 404', async () => {
    const { call, host, sent } = responsesRouter([callSearch('c1', 'y'), say('c2', 'Found y.')]);
    const guarded = { ...MCP_TOOL, require_approval: 'always' };
    const asked = JSON.parse(await replyText(await call('/v1/responses', { model: 'm', input: 'find y', tools: [guarded] }, {}, 'alice'))) as {
      id: string;
      output: Array<{ type: string; id: string }>;
    };
    const request = asked.output[1] as { id: string };
    expect(asked.output[1]).toEqual({
      type: 'mcp_approval_request',
      id: expect.stringMatching(/^mcpr_[0-9a-f]{32}$/),
      server_label: 'docs',
      name: 'search',
      arguments: '{"q":"y"}',
    });
    const resume = {
      model: 'm',
      previous_response_id: asked.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
      tools: [guarded],
    };

    const stranger = await call('/v1/responses', resume, {}, 'mallory');
    expect(stranger.status).toBe(404);
    expect(host.seen.filter((seen) => seen.op === 'call')).toEqual([]);

    const reply = await call('/v1/responses', resume, {}, 'alice');
    expect(reply.status).toBe(200);
    const body = JSON.parse(await replyText(reply)) as { output: unknown[] };
    expect(body.output.slice(1, 2)).toEqual([
      {
        type: 'mcp_call',
        id: expect.stringMatching(/^mcp_[0-9a-f]{32}$/),
        server_label: 'docs',
        name: 'search',
        arguments: '{"q":"y"}',
        output: 'search({"q":"y"})',
        approval_request_id: request.id,
        status: 'completed',
      },
    ]);
    expect(sent).toHaveLength(2);
    const resumed = JSON.parse(new TextDecoder().decode(sent[1]?.body as Uint8Array)) as { messages: unknown[] };
    expect(resumed.messages).toEqual([
      { role: 'user', content: 'find y' },
      { role: 'assistant', tool_calls: [{ id: request.id, type: 'function', function: { name: 'mcp__docs__search', arguments: '{"q":"y"}' } }] },
      { role: 'tool', tool_call_id: request.id, content: 'search({"q":"y"})' },
    ]);
  });
});
