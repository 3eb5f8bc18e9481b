// Requests: exact golden decode per shape, and Converse -> canonical -> Converse exactly.
import type { LlmRequest, LlmWarning } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { bedrockConverse } from '../src/index.js';

const PNG = 'iVBORw0KGgo=';
const PDF = 'JVBERi0xLjQK';

/** Every request shape the codec models, in one body. */
const wire = {
  system: [{ text: 'Be brief.' }, { cachePoint: { type: 'default' } }],
  messages: [
    {
      role: 'user',
      content: [
        { text: 'Look:' },
        { image: { format: 'png', source: { bytes: PNG } } },
        { document: { format: 'pdf', name: 'Q3 report', source: { bytes: PDF } } },
        { document: { name: 'notes', source: { text: 'plain notes' }, context: 'meeting', citations: { enabled: true } } },
        { cachePoint: { type: 'default', ttl: '1h' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'Need weather.', signature: 'sig-1' } } },
        { reasoningContent: { redactedContent: 'cmVkYWN0ZWQ=' } },
        { text: 'Checking.' },
        { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } },
        { toolUse: { toolUseId: 'tooluse_2', name: 'get_time', input: {} } },
      ],
    },
    {
      role: 'user',
      content: [
        { toolResult: { toolUseId: 'tooluse_1', content: [{ json: { temp: 21 } }, { text: 'sunny' }] } },
        { toolResult: { toolUseId: 'tooluse_2', content: [{ text: 'clock broken' }], status: 'error' } },
        { text: 'And tomorrow?' },
      ],
    },
  ],
  inferenceConfig: { maxTokens: 512, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
  toolConfig: {
    tools: [
      {
        toolSpec: { name: 'get_weather', description: 'Weather by city', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } } },
      },
      { cachePoint: { type: 'default' } },
      { toolSpec: { name: 'get_time', inputSchema: { json: { type: 'object' } } } },
    ],
    toolChoice: { any: {} },
  },
  additionalModelRequestFields: { top_k: 40 },
  requestMetadata: { team: 'search' },
  serviceTier: { type: 'priority' },
  outputConfig: { effort: 'high' },
};

const canonical: LlmRequest = {
  model: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
  stream: true,
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'Be brief.', cache: {} }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look:' },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG } },
        { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: PDF }, filename: 'Q3 report' },
        { type: 'file', source: { kind: 'text', text: 'plain notes' }, filename: 'notes', context: 'meeting', citations: true, cache: { ttl: '1h' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Need weather.', signature: 'sig-1', origin: { protocol: 'bedrock-converse' } },
        { type: 'reasoning', text: '', redacted: true, signature: 'cmVkYWN0ZWQ=', origin: { protocol: 'bedrock-converse' } },
        { type: 'text', text: 'Checking.' },
        { type: 'tool-call', id: 'tooluse_1', name: 'get_weather', arguments: { city: 'Paris' } },
        { type: 'tool-call', id: 'tooluse_2', name: 'get_time', arguments: {} },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'tooluse_1',
          content: [
            { type: 'json', value: { temp: 21 } },
            { type: 'text', text: 'sunny' },
          ],
        },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'tooluse_2', content: [{ type: 'text', text: 'clock broken' }], isError: true }] },
    { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
  ],
  maxOutputTokens: 512,
  sampling: { temperature: 0.2, topP: 0.9 },
  stop: ['END'],
  tools: [
    {
      type: 'function',
      name: 'get_weather',
      description: 'Weather by city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      cache: {},
    },
    { type: 'function', name: 'get_time', parameters: { type: 'object' } },
  ],
  toolChoice: { type: 'required' },
  metadata: { team: 'search' },
  serviceTier: 'priority',
  reasoning: { effort: 'high' },
  // temperature with topP, which current Claude models refuse: this client's own, written back as it came.
  extensions: { 'bedrock-converse': { additionalModelRequestFields: { top_k: 40 }, $toolConfig: {}, $outputConfig: {}, $asSent: true } },
};

const context = { model: 'anthropic.claude-sonnet-4-5-20250929-v1:0', stream: true };

describe('Converse requests', () => {
  it('decode every modelled shape exactly (model and stream from the URL)', () => {
    expect(bedrockConverse.request.decode(wire, context)).toEqual(canonical);
  });

  it('encode back to the same body', () => {
    const warnings: LlmWarning[] = [];
    expect(bedrockConverse.request.encode(bedrockConverse.request.decode(wire, context), { warn: (w) => warnings.push(w) })).toEqual(wire);
    expect(warnings).toEqual([]);
  });

  it('round-trips a structured-output schema as the client wrote its text', () => {
    const body = {
      messages: [{ role: 'user', content: [{ text: 'List.' }] }],
      outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: '{ "type": "object" }', name: 'list' } } } },
    };
    const decoded = bedrockConverse.request.decode(body, { model: 'm' });
    expect(decoded.responseFormat).toEqual({ type: 'json-schema', schema: { type: 'object' }, name: 'list' });
    expect(bedrockConverse.request.encode(decoded)).toEqual(body);
  });

  it('writes a response schema from another protocol as JSON text; `strict` loses nothing (Bedrock enforces schemas)', () => {
    const warnings: LlmWarning[] = [];
    const body = bedrockConverse.request.encode(
      {
        model: 'm',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'List.' }] }],
        responseFormat: { type: 'json-schema', schema: { type: 'object', properties: {} }, name: 'list', strict: true },
      },
      { warn: (w) => warnings.push(w) },
    );
    expect(body.outputConfig).toEqual({
      textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: '{"type":"object","properties":{}}', name: 'list' } } },
    });
    expect(warnings).toEqual([]);
  });

  it('keeps blocks without a canonical meaning whole (guardContent, S3 images, tool results after text, unknown cachePoints)', () => {
    const body = {
      messages: [
        {
          role: 'user',
          content: [
            { cachePoint: { type: 'default' } },
            { guardContent: { text: { text: 'check me' } } },
            { image: { format: 'png', source: { s3Location: { uri: 's3://b/k.png' } } } },
            { text: 'then' },
            { toolResult: { toolUseId: 't', content: [{ video: { format: 'mp4', source: { bytes: 'AA==' } } }] } },
          ],
        },
      ],
      inferenceConfig: {},
    };
    const decoded = bedrockConverse.request.decode(body, { model: 'm' });
    expect(decoded.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'provider', protocol: 'bedrock-converse', value: { cachePoint: { type: 'default' } } },
          { type: 'provider', protocol: 'bedrock-converse', value: { guardContent: { text: { text: 'check me' } } } },
          { type: 'provider', protocol: 'bedrock-converse', value: { image: { format: 'png', source: { s3Location: { uri: 's3://b/k.png' } } } } },
          { type: 'text', text: 'then' },
          { type: 'provider', protocol: 'bedrock-converse', value: body.messages[0]!.content[4] },
        ],
      },
    ]);
    expect(bedrockConverse.request.encode(decoded)).toEqual(body);
  });

  it('keeps two separate tool-result turns separate', () => {
    const body = {
      messages: [
        { role: 'user', content: [{ toolResult: { toolUseId: 'a', content: [{ text: '1' }] } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'b', content: [{ text: '2' }] } }] },
      ],
    };
    expect(bedrockConverse.request.encode(bedrockConverse.request.decode(body, { model: 'm' }))).toEqual(body);
  });

  it('refuses what is not a Converse request, naming the path', () => {
    expect(() => bedrockConverse.request.decode({ messages: [{ role: 'system', content: [] }] }, { model: 'm' })).toThrow(
      'messages[0].role: expected "user" or "assistant", got "system"',
    );
    expect(() =>
      bedrockConverse.request.decode({ messages: [{ role: 'user', content: [{ toolResult: { toolUseId: 't', content: [], status: 'failed' } }] }] }),
    ).toThrow('messages[0].content[0].toolResult.status: expected "success" or "error", got "failed"');
    expect(() => bedrockConverse.request.decode({ messages: [], toolConfig: { tools: [], toolChoice: { none: {} } } })).toThrow('toolConfig.toolChoice');
  });

  it('refuses input nested deeper than MAX_JSON_DEPTH as invalid_request', () => {
    let input: Record<string, unknown> = {};
    for (let depth = 0; depth < 200; depth++) input = { a: input };
    const body = { messages: [{ role: 'assistant', content: [{ toolUse: { toolUseId: 't', name: 'f', input } }] }] };
    expect(() => bedrockConverse.request.decode(body, { model: 'm' })).toThrow(
      expect.objectContaining({ kind: 'invalid_request', protocol: 'bedrock-converse' }),
    );
  });
});

describe('thinking of Claude models (additionalModelRequestFields.thinking)', () => {
  const claudeModel = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

  it('is the canonical reasoning setting, and comes back exactly beside the other model fields', () => {
    const body = {
      messages: [{ role: 'user', content: [{ text: 'Think.' }] }],
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 4096 }, top_k: 5 },
    };
    const decoded = bedrockConverse.request.decode(body, { model: claudeModel });
    expect(decoded.reasoning).toEqual({ enabled: true, budgetTokens: 4096 });
    // top_k beside thinking, which Claude refuses: this client's own, written back as it came.
    expect(decoded.extensions).toEqual({ 'bedrock-converse': { additionalModelRequestFields: { top_k: 5 }, $budget: 4096, $asSent: true } });
    expect(bedrockConverse.request.encode(decoded)).toEqual(body);
  });

  it('stays a model field, kept whole, for other models or shapes we do not model', () => {
    const body = { messages: [], additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 10, display: 'x' } } };
    expect(bedrockConverse.request.decode(body, { model: claudeModel }).reasoning).toBeUndefined();
    expect(
      bedrockConverse.request.decode({ ...body, additionalModelRequestFields: { thinking: { type: 'adaptive' } } }, { model: 'amazon.nova-pro-v1:0' })
        .reasoning,
    ).toBeUndefined();
  });

  it("is read for a name that is no Bedrock id (a gateway route alias), not for another vendor's id", () => {
    const body = { messages: [], additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } } };
    for (const alias of ['to-openai-chat', 'gpt-4.1', 'gemini-2.5-pro', 'claude-sonnet']) {
      const decoded = bedrockConverse.request.decode(body, { model: alias });
      expect([alias, decoded.reasoning, decoded.extensions]).toEqual([alias, { enabled: true, budgetTokens: 1024 }, { 'bedrock-converse': { $budget: 1024 } }]);
    }
    for (const other of ['amazon.nova-pro-v1:0', 'us.meta.llama3-2-90b-instruct-v1:0', 'openai.gpt-oss-120b-1:0']) {
      const decoded = bedrockConverse.request.decode(body, { model: other });
      expect([other, decoded.reasoning, decoded.extensions]).toEqual([
        other,
        undefined,
        { 'bedrock-converse': { additionalModelRequestFields: body.additionalModelRequestFields } },
      ]);
    }
  });

  it('is written for a Claude model from another protocol: a budget, adaptive, off, or a budget from the effort', () => {
    const encode = (reasoning: LlmRequest['reasoning'], maxOutputTokens?: number) =>
      bedrockConverse.request.encode({ model: claudeModel, messages: [], reasoning, ...(maxOutputTokens ? { maxOutputTokens } : {}) })
        .additionalModelRequestFields;
    expect(encode({ enabled: true, budgetTokens: 3000 })).toEqual({ thinking: { type: 'enabled', budget_tokens: 3000 } });
    expect(encode({ adaptive: true })).toEqual({ thinking: { type: 'adaptive' } });
    expect(encode({ effort: 'none' })).toEqual({ thinking: { type: 'disabled' } });
    expect(encode({ enabled: true, effort: 'high' })).toEqual({ thinking: { type: 'enabled', budget_tokens: 16384 } });
    expect(encode({ enabled: true, effort: 'high' }, 4000)).toEqual({ thinking: { type: 'enabled', budget_tokens: 3999 } });
    expect(encode({ effort: 'high' })).toBeUndefined();
  });

  it("fits a budget from another protocol to Anthropic's bounds, reported, and keeps a Converse client's own as sent", () => {
    const encode = (reasoning: LlmRequest['reasoning'], maxOutputTokens?: number, extensions?: LlmRequest['extensions']) => {
      const warnings: LlmWarning[] = [];
      const wire = bedrockConverse.request.encode(
        { model: claudeModel, messages: [], reasoning, ...(maxOutputTokens ? { maxOutputTokens } : {}), ...(extensions ? { extensions } : {}) },
        { warn: (warning) => warnings.push(warning) },
      );
      return [wire.additionalModelRequestFields, warnings.map(({ code, path }) => `${code} ${path}`)];
    };
    expect(encode({ enabled: true, budgetTokens: 512 })).toEqual([
      { thinking: { type: 'enabled', budget_tokens: 1024 } },
      ['lossy-conversion reasoning.budgetTokens'],
    ]);
    expect(encode({ enabled: true, budgetTokens: 8000 }, 4096)).toEqual([
      { thinking: { type: 'enabled', budget_tokens: 4095 } },
      ['lossy-conversion reasoning.budgetTokens'],
    ]);
    expect(encode({ enabled: true, budgetTokens: 8000 }, 1000)).toEqual([undefined, ['dropped-field reasoning']]);
    // The client's own, above maxTokens (interleaved thinking): as it sent it.
    const body = {
      messages: [{ role: 'user', content: [{ text: 'Think.' }] }],
      inferenceConfig: { maxTokens: 4096 },
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 8000 } },
    };
    expect(bedrockConverse.request.encode(bedrockConverse.request.decode(body, { model: claudeModel }))).toEqual(body);
  });
});

describe('requests from other protocols', () => {
  it('merges tool results and the user turn after them, writes media as bytes and reports what Converse cannot take', () => {
    const warnings: LlmWarning[] = [];
    const request: LlmRequest = {
      model: 'amazon.nova-pro-v1:0',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'sys' }] },
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'url', url: `data:image/jpeg;base64,${PNG}` }, detail: 'high' },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.png' } },
            { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: PDF }, filename: 'report.pdf' },
            { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'AA==' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'think', signature: 'claude-sig', origin: { protocol: 'claude' } },
            { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{"a":1}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: 'done' }] },
        { role: 'user', content: [{ type: 'text', text: 'next' }] },
      ],
      tools: [
        { type: 'function', name: 'f', parameters: { type: 'object' } },
        { type: 'web_search', name: 'web_search' },
      ],
      toolChoice: { type: 'none' },
      parallelToolCalls: false,
      sampling: { topK: 5 },
      responseFormat: { type: 'json' },
      reasoning: { enabled: true, budgetTokens: 2048 },
    };
    expect(bedrockConverse.request.encode(request, { warn: (w) => warnings.push(w) })).toEqual({
      system: [{ text: 'sys' }],
      messages: [
        {
          role: 'user',
          content: [{ image: { format: 'jpeg', source: { bytes: PNG } } }, { document: { format: 'pdf', name: 'report-pdf', source: { bytes: PDF } } }],
        },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'call_1', name: 'f', input: { a: 1 } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'call_1', content: [{ text: 'done' }] } }, { text: 'next' }] },
      ],
      toolConfig: { tools: [{ toolSpec: { name: 'f', inputSchema: { json: { type: 'object' } } } }] },
    });
    expect(warnings.map((w) => `${w.code}@${w.path}`)).toEqual([
      'dropped-field@messages[1].content[0].detail',
      'dropped-part@messages[1].content[1]',
      'lossy-conversion@messages[1].content[2].filename',
      'dropped-part@messages[1].content[3]',
      'foreign-state@messages[2].content[0]',
      'dropped-field@sampling.topK',
      'lossy-conversion@toolChoice',
      'dropped-field@parallelToolCalls',
      'dropped-tool@tools[1]',
      'dropped-field@responseFormat',
      'dropped-field@reasoning',
    ]);
  });

  it('a document Converse cannot take is reported once, as dropped (not also renamed)', () => {
    const warnings: LlmWarning[] = [];
    const body = bedrockConverse.request.encode(
      {
        model: 'm',
        messages: [{ role: 'user', content: [{ type: 'file', filename: 'clip.mp4', source: { kind: 'base64', mediaType: 'video/mp4', data: 'AA==' } }] }],
      },
      { warn: (w) => warnings.push(w) },
    );
    expect(body.messages).toEqual([{ role: 'user', content: [] }]);
    expect(warnings.map((w) => `${w.code}@${w.path}: ${w.message}`)).toEqual([
      'dropped-part@messages[0].content[0]: Converse documents take pdf, csv, doc(x), xls(x), html, txt or md, not video/mp4',
    ]);
  });

  it('declares the tools a history called when the request sends none (Converse requires toolConfig then)', () => {
    const warnings: LlmWarning[] = [];
    const request: LlmRequest = {
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'get_weather', arguments: {} }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', content: 'sunny' }] },
        { role: 'user', content: [{ type: 'text', text: 'summarise' }] },
      ],
    };
    const body = bedrockConverse.request.encode(request, { warn: (w) => warnings.push(w), strict: true });
    expect(body.toolConfig).toEqual({ tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }] });
    expect(warnings.map((w) => `${w.code}@${w.path}`)).toEqual(['defaulted@tools']);
  });

  it('throws unsupported in strict mode at the first loss', () => {
    const request: LlmRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], sampling: { seed: 1 } };
    expect(() => bedrockConverse.request.encode(request, { strict: true })).toThrow('sampling.seed: Converse has no model-independent seed');
  });
});

describe('sampling for a Claude model from another protocol', () => {
  const claudeModel = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
  const encode = (model: string, request: Partial<LlmRequest>) => {
    const warnings: LlmWarning[] = [];
    const wire = bedrockConverse.request.encode(
      { model, maxOutputTokens: 8192, messages: [{ role: 'user', content: [{ type: 'text', text: 'Q' }] }], ...request },
      { warn: (warning) => warnings.push(warning) },
    );
    return { inference: wire.inferenceConfig, fields: wire.additionalModelRequestFields, warnings: warnings.map(({ code, path }) => `${code} ${path}`) };
  };

  it("is fitted to Claude's bounds, reported: temperature with topP keeps temperature, thinking drops other temperatures", () => {
    expect(encode(claudeModel, { sampling: { temperature: 1.5, topP: 0.9 } })).toEqual({
      inference: { maxTokens: 8192, temperature: 1 },
      fields: undefined,
      warnings: ['lossy-conversion sampling.temperature', 'dropped-field sampling.topP'],
    });
    expect(encode(claudeModel, { sampling: { temperature: 0 }, reasoning: { enabled: true, budgetTokens: 2048 } })).toEqual({
      inference: { maxTokens: 8192 },
      fields: { thinking: { type: 'enabled', budget_tokens: 2048 } },
      warnings: ['dropped-field sampling.temperature'],
    });
  });

  it('a forced tool call leaves thinking out', () => {
    const tools: LlmRequest['tools'] = [{ type: 'function', name: 'f', parameters: { type: 'object' } }];
    expect(encode(claudeModel, { tools, toolChoice: { type: 'required' }, reasoning: { enabled: true, budgetTokens: 2048 } })).toMatchObject({
      fields: undefined,
      warnings: ['dropped-field reasoning'],
    });
  });

  it("leaves other vendors' models alone", () => {
    expect(encode('amazon.nova-pro-v1:0', { sampling: { temperature: 0.7, topP: 0.9 } })).toEqual({
      inference: { maxTokens: 8192, temperature: 0.7, topP: 0.9 },
      fields: undefined,
      warnings: [],
    });
  });
});
