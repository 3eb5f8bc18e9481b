// Responses ids and who may continue a conversation (issue 17, "Users must not cross").
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { describe, expect, it } from 'vitest';
import type { RouterConfig, Transport } from '../src/config.js';
import { createRouter } from '../src/handler.js';
import type { RouterReply } from '../src/reply.js';

/** Every call the upstream got, its body parsed. */
type Sent = Record<string, unknown>[];

/** A Chat upstream that gives every answer the same id, as some servers do; it echoes the last user text. */
function reusingChatUpstream(sent: Sent): Transport {
  return async (request) => {
    const body = JSON.parse(new TextDecoder().decode(request.body as Uint8Array)) as { messages: { role: string; content: string }[]; stream?: boolean };
    sent.push(body);
    const text = `echo ${body.messages.at(-1)?.content}`;
    if (!body.stream) {
      return Response.json({
        id: 'chatcmpl-same',
        object: 'chat.completion',
        created: 1,
        model: 'g',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      });
    }
    const chunk = (delta: unknown, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-same', object: 'chat.completion.chunk', created: 1, model: 'g', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    return new Response(`${chunk({ role: 'assistant', content: text }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`, {
      headers: { 'content-type': 'text/event-stream' },
    });
  };
}

function router(transport: Transport, extra: Partial<RouterConfig> = {}) {
  return createRouter({
    codecs: { 'openai-chat': openaiChat, 'openai-responses': openaiResponses },
    upstreams: { chat: { protocol: 'openai-chat', baseUrl: 'http://upstream.test/v1' } },
    routes: [{ match: '*', upstream: 'chat' }],
    transport,
    ...extra,
  });
}

/** A Responses call made with the credential `keyId` (undefined: an open router). */
const call = (body: unknown, keyId?: string) => ({
  method: 'POST',
  url: 'http://router.test/v1/responses',
  headers: { get: () => null },
  text: async () => JSON.stringify(body),
  clientKeyId: keyId,
});

const turn = (input: string, previous?: string) => ({ model: 'gpt-x', input, ...(previous ? { previous_response_id: previous } : {}) });
const bodyOf = (reply: RouterReply) => JSON.parse(reply.body as string) as { id: string; error?: { message: string; param?: string } };

describe('Responses ids the router mints, and their owners', () => {
  it('an upstream reusing ids never lets key B continue key A: 404 naming previous_response_id; key A continues its own', async () => {
    const sent: Sent = [];
    const route = router(reusingChatUpstream(sent));
    const a = bodyOf(await route(call(turn('secret of A'), 'key-a')));
    const b = bodyOf(await route(call(turn('hello from B'), 'key-b')));
    expect(a.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(b.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(a.id).not.toBe(b.id);

    const stolen = await route(call(turn('continue', a.id), 'key-b'));
    const missing = await route(call(turn('continue', 'resp_00000000000000000000000000000000'), 'key-b'));
    expect(stolen.status).toBe(404);
    // The same answer as an id that never existed: nothing tells B that A's id is real.
    expect(bodyOf(stolen).error).toEqual({ ...bodyOf(missing).error, message: `previous response ${a.id} not found` });
    expect(bodyOf(stolen).error).toMatchObject({ param: 'previous_response_id' });
    expect(sent).toHaveLength(2);

    const own = await route(call(turn('continue', a.id), 'key-a'));
    expect(own.status).toBe(200);
    expect(sent[2]?.messages).toEqual([
      { role: 'user', content: 'secret of A' },
      { role: 'assistant', content: [{ type: 'text', text: 'echo secret of A' }] },
      { role: 'user', content: 'continue' },
    ]);
    // An open call (no key) is another owner too.
    expect((await route(call(turn('continue', a.id)))).status).toBe(404);
  });

  it('a streamed answer carries one minted id in every event that has it, and that id continues the conversation', async () => {
    const sent: Sent = [];
    const route = router(reusingChatUpstream(sent));
    const reply = await route(call({ ...turn('streamed'), stream: true }, 'key-a'));
    let text = '';
    for await (const chunk of reply.body as AsyncIterable<string | Uint8Array>) text += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
    const events = text
      .split('\n\n')
      .filter((block) => block.includes('data: '))
      .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { type: string; response?: { id: string }; item_id?: string });
    const ids = new Set(events.flatMap((event) => (event.response ? [event.response.id] : [])));
    expect(events.filter((event) => event.response).map((event) => event.type)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(ids.size).toBe(1);
    const [id] = [...ids] as [string];
    expect(id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(text).not.toContain('chatcmpl-same');
    const next = await route(call(turn('again', id), 'key-a'));
    expect(next.status).toBe(200);
    expect(sent[1]?.messages).toEqual([
      { role: 'user', content: 'streamed' },
      { role: 'assistant', content: [{ type: 'text', text: 'echo streamed' }] },
      { role: 'user', content: 'again' },
    ]);
  });
});

describe('a Responses upstream (its own ids)', () => {
  /** A Responses upstream answering every call as `resp_up1`. */
  function responsesUpstream(sent: Sent): Transport {
    return async (request) => {
      sent.push(JSON.parse(new TextDecoder().decode(request.body as Uint8Array)) as Record<string, unknown>);
      return Response.json({
        id: 'resp_up1',
        object: 'response',
        created_at: 1,
        status: 'completed',
        model: 'o',
        output: [{ type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }],
      });
    };
  }
  const responsesRouter = (sent: Sent) =>
    router(responsesUpstream(sent), {
      upstreams: { up: { protocol: 'openai-responses', baseUrl: 'http://upstream.test/v1' } },
      routes: [{ match: '*', upstream: 'up' }],
    });

  it('passes previous_response_id to the upstream for the key that got the id, and refuses (404) every other key before sending', async () => {
    const sent: Sent = [];
    const route = responsesRouter(sent);
    expect(bodyOf(await route(call(turn('one'), 'key-a'))).id).toBe('resp_up1');
    const other = await route(call(turn('two', 'resp_up1'), 'key-b'));
    expect(other.status).toBe(404);
    expect(bodyOf(other).error?.message).toBe('previous response resp_up1 not found');
    expect(sent).toHaveLength(1);
    const own = await route(call(turn('two', 'resp_up1'), 'key-a'));
    expect(own.status).toBe(200);
    expect(sent[1]).toMatchObject({ previous_response_id: 'resp_up1' });
  });

  it('replays a turn the router kept (its minted id, from a Chat upstream) to a Responses upstream, which never saw that id', async () => {
    const sent: Sent = [];
    const chat = reusingChatUpstream(sent);
    const responses = responsesUpstream(sent);
    const route = router((request) => (request.url.includes('/chat/') ? chat(request) : responses(request)), {
      upstreams: {
        chat: { protocol: 'openai-chat', baseUrl: 'http://upstream.test/v1' },
        up: { protocol: 'openai-responses', baseUrl: 'http://upstream.test/v1' },
      },
      routes: [
        { match: 'gpt-x', upstream: 'chat' },
        { match: 'o-*', upstream: 'up' },
      ],
    });
    const minted = bodyOf(await route(call(turn('one'), 'key-a'))).id;
    expect(minted).toMatch(/^resp_[0-9a-f]{32}$/);
    const other = await route(call({ ...turn('two', minted), model: 'o-1' }, 'key-b'));
    expect(other.status).toBe(404);
    const own = await route(call({ ...turn('two', minted), model: 'o-1' }, 'key-a'));
    expect(own.status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.previous_response_id).toBeUndefined();
    expect(sent[1]?.input).toEqual([
      { type: 'message', role: 'user', content: 'one' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'echo one', annotations: [] }] },
      { type: 'message', role: 'user', content: 'two' },
    ]);
  });

  it('an open router (no keys) passes previous_response_id on to the upstream that keeps the conversation', async () => {
    const sent: Sent = [];
    const route = responsesRouter(sent);
    const reply = await route(call(turn('two', 'resp_from_elsewhere')));
    expect(reply.status).toBe(200);
    expect(sent[0]).toMatchObject({ previous_response_id: 'resp_from_elsewhere' });
  });
});
