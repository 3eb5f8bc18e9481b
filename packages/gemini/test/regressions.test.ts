// Entries of /work/shared/REGRESSIONS.md about Gemini wire handling: thought signatures, call ids,
// tool results and the schema dialect. Each test is named after its entry.
import { accumulateEvents, type LlmMessage, type LlmRequest, type LlmTool, type LlmWarning, type SseEvent } from '@llm/core';
import { collect, streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini, SKIP_SIGNATURE } from '../src/index.js';

const user: LlmMessage = { role: 'user', content: [{ type: 'text', text: 'go' }] };

function encode(request: Omit<LlmRequest, 'model'>, model = 'gemini-3-pro-preview'): { body: Record<string, unknown>; warnings: LlmWarning[] } {
  const warnings: LlmWarning[] = [];
  const body = gemini.request.encode({ model, ...request }, { warn: (warning) => warnings.push(warning) }) as Record<string, unknown>;
  return { body, warnings };
}

function declarations(tools: LlmTool[]): unknown {
  const { body, warnings } = encode({ messages: [user], tools });
  expect(warnings).toEqual([]);
  return body.tools;
}

describe('REGRESSIONS', () => {
  it('R2 litellm#16893: a streamed thoughtSignature stays on its call and goes back on turn 2', async () => {
    const chunks = [
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Let me check.' }] }, index: 0 }], modelVersion: 'gemini-3-pro-preview', responseId: 'r1' },
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'CiQB-_sig' }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 },
        modelVersion: 'gemini-3-pro-preview',
        responseId: 'r1',
      },
    ];
    const sse = chunks.map((chunk): SseEvent => ({ data: JSON.stringify(chunk), event: undefined, id: undefined }));
    const events = await collect(streamOf(sse).pipeThrough(gemini.stream.decode()));
    expect(events[4]).toEqual({
      type: 'block-start',
      index: 1,
      block: { kind: 'tool_call', id: 'call_r1_0', name: 'weather', origin: { protocol: 'gemini', model: 'gemini-3-pro-preview' }, signature: 'CiQB-_sig' },
    });
    const answer = accumulateEvents(events).choices[0]!;
    const { body, warnings } = encode({
      messages: [
        user,
        { role: 'assistant', content: answer.content },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_r1_0', content: 'sunny' }] },
      ],
    });
    expect(warnings).toEqual([]);
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'go' }] },
      {
        role: 'model',
        parts: [{ text: 'Let me check.' }, { functionCall: { name: 'weather', args: { city: 'Paris' }, id: 'call_r1_0' }, thoughtSignature: 'CiQB-_sig' }],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { output: 'sunny' }, id: 'call_r1_0' } }] },
    ]);
  });

  it('R7 litellm#23712: images in a tool result are nested in functionResponse.parts', () => {
    const { body } = encode({
      messages: [
        user,
        { role: 'assistant', content: [{ type: 'tool-call', id: 'toolu_1', name: 'screenshot', arguments: {} }] },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'toolu_1',
              content: [
                { type: 'text', text: 'the page' },
                { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0K' } },
              ],
            },
          ],
        },
      ],
    });
    expect((body.contents as unknown[])[2]).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'screenshot',
            response: { output: 'the page' },
            id: 'toolu_1',
            parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } }],
          },
        },
      ],
    });
  });

  it('R9 litellm#6386: $ref / $defs are inlined in tool parameters and in the response schema', () => {
    const schema = {
      type: 'object',
      properties: { city: { $ref: '#/$defs/City' } },
      required: ['city'],
      $defs: { City: { type: 'string', description: 'a city' } },
    };
    const inlined = { type: 'object', properties: { city: { type: 'string', description: 'a city' } }, required: ['city'] };
    expect(declarations([{ type: 'function', name: 'weather', parameters: schema }])).toEqual([
      { functionDeclarations: [{ name: 'weather', parametersJsonSchema: inlined }] },
    ]);
    const { body } = encode({ messages: [user], responseFormat: { type: 'json-schema', schema } });
    expect(body.generationConfig).toEqual({ responseMimeType: 'application/json', responseJsonSchema: inlined });
  });

  it('R10 litellm#6459, R44 vercel/ai#4412, R45 vercel/ai#6872: foreign schemas go as JSON Schema (parametersJsonSchema), never the OpenAPI dialect', () => {
    // `default`, `{type:"null"}` unions and numeric enums are valid in parametersJsonSchema; the
    // OpenAPI-dialect `parameters` field (which rejects them) is only written for schemas that came in it.
    const parameters = {
      type: 'object',
      properties: {
        tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }], default: null },
        level: { type: 'integer', enum: [1, 2, 3], default: 1 },
      },
    };
    expect(declarations([{ type: 'function', name: 'f', parameters }])).toEqual([{ functionDeclarations: [{ name: 'f', parametersJsonSchema: parameters }] }]);
    const openApi = { type: 'OBJECT', properties: { tags: { type: 'ARRAY', items: { type: 'STRING' }, nullable: true } } };
    const body = { contents: [{ role: 'user', parts: [{ text: 'go' }] }], tools: [{ functionDeclarations: [{ name: 'f', parameters: openApi }] }] };
    const request = gemini.request.decode(body, { model: 'gemini-2.5-flash', stream: false });
    const [tool] = request.tools ?? [];
    expect(tool?.type === 'function' ? [tool.name, tool.parameters] : tool).toEqual([
      'f',
      { type: 'object', properties: { tags: { type: ['array', 'null'], items: { type: 'string' } } } },
    ]);
    expect(gemini.request.encode(request)).toEqual(body);
  });

  it('R23 CLIProxyAPI#1375: Claude-only tool fields (defer_loading) never reach functionDeclarations', () => {
    const tool: LlmTool = { type: 'function', name: 'grep', parameters: { type: 'object' }, extensions: { claude: { defer_loading: true } } };
    expect(declarations([tool])).toEqual([{ functionDeclarations: [{ name: 'grep', parametersJsonSchema: { type: 'object' } }] }]);
  });

  it('R28 claude-code-router#1032: replayed unsigned function calls get the skip signature on the first call of the turn', () => {
    const { body } = encode({
      messages: [
        user,
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', id: 'toolu_1', name: 'ls', arguments: '{}' },
            { type: 'tool-call', id: 'toolu_2', name: 'ls', arguments: '{"path":"/tmp"}' },
          ],
        },
      ],
    });
    expect((body.contents as unknown[])[1]).toEqual({
      role: 'model',
      parts: [
        { functionCall: { name: 'ls', args: {}, id: 'toolu_1' }, thoughtSignature: SKIP_SIGNATURE },
        { functionCall: { name: 'ls', args: { path: '/tmp' }, id: 'toolu_2' } },
      ],
    });
  });

  it('R52 any-llm#1318: functionResponse.name comes from the call the result answers, not from the tool message', () => {
    const { body } = encode({
      messages: [
        user,
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', id: 'call_a', name: 'read_file', arguments: '{"p":"a"}' },
            { type: 'tool-call', id: 'call_b', name: 'list_dir', arguments: '{}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_b', content: 'x y' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_a', content: 'text' }] },
      ],
    });
    expect((body.contents as unknown[])[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'list_dir', response: { output: 'x y' }, id: 'call_b' } },
        { functionResponse: { name: 'read_file', response: { output: 'text' }, id: 'call_a' } },
      ],
    });
  });

  it('R53 cherry-studio#19047: parallel same-name calls keep their own signatures, whatever the model alias', () => {
    const { body, warnings } = encode(
      {
        messages: [
          user,
          {
            role: 'assistant',
            content: [
              { type: 'tool-call', id: 'c1', name: 'shot', arguments: {}, signature: 'AAAA', origin: { protocol: 'gemini' } },
              { type: 'tool-call', id: 'c2', name: 'shot', arguments: { n: 2 }, signature: 'BBBB', origin: { protocol: 'gemini' } },
            ],
          },
        ],
      },
      'gemini-flash-latest',
    );
    expect(warnings).toEqual([]);
    expect((body.contents as unknown[])[1]).toEqual({
      role: 'model',
      parts: [
        { functionCall: { name: 'shot', args: {}, id: 'c1' }, thoughtSignature: 'AAAA' },
        { functionCall: { name: 'shot', args: { n: 2 }, id: 'c2' }, thoughtSignature: 'BBBB' },
      ],
    });
  });
});
