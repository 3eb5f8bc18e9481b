// A codec the router was never told about (a fifth protocol, here OpenAI Chat's wire under a new
// id with rules of its own) routes through it: everything the router knows of a protocol comes
// from the codec's `traits` and `endpoints`.
import { claude } from '@llm/claude';
import type { Codec, CodecTraits, LlmWarning, ProtocolId } from '@llm/core';
import { openaiChat } from '@llm/openai-chat';
import { describe, expect, it } from 'vitest';
import { bridge } from '../src/bridge.js';
import type { UpstreamRequest } from '../src/config.js';
import { createRouter } from '../src/handler.js';
import { defaultCodecs } from '../src/registry.js';

const ACME = 'acme' as ProtocolId;
const acmeTraits: CodecTraits = {
  ...openaiChat.traits,
  maxStopSequences: 2,
  toolNames: { invalidCharacter: /[^a-z_]/g, maxLength: 12 },
};
const acme: Codec = { ...(openaiChat as Codec), id: ACME, traits: acmeTraits };

const claudeBody = {
  model: 'acme-large',
  max_tokens: 100,
  stop_sequences: ['a', 'b', 'c'],
  messages: [{ role: 'user', content: 'Patch it' }],
  tools: [{ name: 'fs/Read', input_schema: { type: 'object', properties: {} } }],
};

describe('a fifth codec, by its traits only', () => {
  it('routes a Claude client to it with its own stop limit and tool-name rule, and names the answer back', async () => {
    const sent: UpstreamRequest[] = [];
    const route = createRouter({
      codecs: { ...defaultCodecs(), [ACME]: acme },
      upstreams: { main: { protocol: ACME, baseUrl: 'https://acme.test/v1', apiKey: 'k' } },
      routes: [{ match: 'acme-*', upstream: 'main' }],
      transport: async (request) => {
        sent.push(request);
        return new Response(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 1,
            model: 'acme-large',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'fs__ead', arguments: '{}' } }] },
                finish_reason: 'tool_calls',
              },
            ],
            usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
          }),
          { headers: { 'content-type': 'application/json' } },
        );
      },
    });
    const reply = await route({
      method: 'POST',
      url: 'http://router.test/v1/messages',
      headers: new Headers({ 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }),
      text: async () => JSON.stringify(claudeBody),
    });
    expect(reply.status).toBe(200);
    expect(sent[0]?.url).toBe('https://acme.test/v1/chat/completions');
    const upstreamBody = JSON.parse(new TextDecoder().decode(sent[0]?.body as Uint8Array)) as {
      stop: string[];
      tools: Array<{ function: { name: string; parameters: unknown } }>;
    };
    expect(upstreamBody.stop).toEqual(['a', 'b']);
    expect(upstreamBody.tools.map((tool) => tool.function.name)).toEqual(['fs__ead']);
    const answer = JSON.parse(reply.body as string) as { content: Array<{ type: string; name: string }>; stop_reason: string };
    expect(answer.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'fs/Read', input: {} }]);
    expect(answer.stop_reason).toBe('tool_use');
  });

  it('its warnings name it and follow its traits', async () => {
    const warnings: LlmWarning[] = [];
    bridge({ client: claude as Codec, upstream: acme, warn: (warning) => warnings.push(warning) }).request(structuredClone(claudeBody));
    expect(warnings.map((warning) => `${warning.code}@${warning.path}: ${warning.message}`)).toEqual([
      'dropped-field@stop[2]: acme accepts at most 2 stop sequences; 1 dropped',
      'lossy-conversion@tools[0].name: tool name "fs/Read" sent to acme as "fs__ead"',
    ]);
  });
});
