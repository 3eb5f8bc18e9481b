// Property round trips: for generated Responses bodies and answers, decode then encode is the
// identity (reasoning state, calls and outputs included), and streamed text and argument deltas
// split anywhere accumulate to the joined values.
import { accumulateEvents, type LlmStreamEvent } from '@llm/core';
import { runTransform } from '@llm/test-utils';
import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

/** Asserts decode then encode gives back every generated body. */
function roundTrips(bodies: fc.Arbitrary<unknown>, side: { decode(body: unknown): unknown; encode(value: never): unknown }): void {
  fc.assert(
    fc.property(bodies, (body) => {
      expect(side.encode(side.decode(structuredClone(body)) as never)).toEqual(body);
    }),
    propertyRuns(300),
  );
}
const text = fc.string({ maxLength: 40, unit: 'grapheme' });
const callId = fc.stringMatching(/^call_[A-Za-z0-9]{1,12}$/);
const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/);
const jsonArgs = fc
  .dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.integer(), fc.boolean(), text), { maxKeys: 3 })
  .map((value) => JSON.stringify(value));

const label = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/);
const nullable = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null });
/** Hosted MCP items as answers carry them (nulls, statuses) and as they come back in input. */
const mcpItem = fc.oneof(
  fc.record(
    {
      type: fc.constant('mcp_list_tools'),
      id: fc.stringMatching(/^mcpl_[a-z0-9]{1,8}$/),
      server_label: label,
      tools: fc.array(
        fc.record(
          {
            name: toolName,
            input_schema: fc.constant({ type: 'object', properties: {} }),
            description: nullable(text),
            annotations: fc.constantFrom(null, { readOnlyHint: true }),
          },
          { requiredKeys: ['name', 'input_schema'] },
        ),
        { maxLength: 2 },
      ),
      error: nullable(text),
    },
    { requiredKeys: ['type', 'id', 'server_label', 'tools'] },
  ),
  fc.record(
    {
      type: fc.constant('mcp_call'),
      id: fc.stringMatching(/^mcp_[a-z0-9]{1,8}$/),
      server_label: label,
      name: toolName,
      arguments: jsonArgs,
      approval_request_id: nullable(fc.stringMatching(/^mcpr_[a-z0-9]{1,8}$/)),
      output: nullable(text),
      error: nullable(text),
      status: fc.constantFrom('completed', 'failed', 'in_progress', 'calling', 'incomplete'),
    },
    { requiredKeys: ['type', 'id', 'server_label', 'name', 'arguments'] },
  ),
  fc.record({
    type: fc.constant('mcp_approval_request'),
    id: fc.stringMatching(/^mcpr_[a-z0-9]{1,8}$/),
    server_label: label,
    name: toolName,
    arguments: jsonArgs,
  }),
);

const inputItem = fc.oneof(
  mcpItem,
  fc.record(
    {
      type: fc.constant('mcp_approval_response'),
      approval_request_id: fc.stringMatching(/^mcpr_[a-z0-9]{1,8}$/),
      approve: fc.boolean(),
      id: fc.stringMatching(/^mcpa_[a-z0-9]{1,8}$/),
      reason: text,
    },
    { requiredKeys: ['type', 'approval_request_id', 'approve'] },
  ),
  fc.record({ role: fc.constantFrom('user', 'system', 'developer'), content: text }),
  fc.record({
    type: fc.constant('message'),
    role: fc.constant('user'),
    content: fc.array(
      text.map((value) => ({ type: 'input_text', text: value })),
      { minLength: 1, maxLength: 3 },
    ),
  }),
  fc.record({
    type: fc.constant('reasoning'),
    id: fc.stringMatching(/^rs_[a-z0-9]{1,8}$/),
    summary: fc.array(
      text.map((value) => ({ type: 'summary_text', text: value })),
      { maxLength: 2 },
    ),
    encrypted_content: fc.base64String({ minLength: 4, maxLength: 40 }),
  }),
  fc.record({ type: fc.constant('function_call'), call_id: callId, name: toolName, arguments: jsonArgs }),
  fc.record({ type: fc.constant('function_call_output'), call_id: callId, output: text }),
);
const request = fc.record(
  {
    model: fc.constantFrom('gpt-5', 'gpt-4.1', 'o4-mini'),
    instructions: text,
    input: fc.oneof(text, fc.array(inputItem, { minLength: 1, maxLength: 6 })),
    tools: fc.array(
      fc.oneof(
        fc.record({
          type: fc.constant('function'),
          name: toolName,
          description: text,
          parameters: fc.constant({ type: 'object', properties: {}, required: [], additionalProperties: false }),
          strict: fc.boolean(),
        }),
        fc.record(
          {
            type: fc.constant('mcp'),
            server_label: label,
            server_url: fc.constantFrom('https://mcp.example/mcp', 'https://x.example/sse'),
            connector_id: fc.constant('connector_gmail'),
            authorization: text,
            headers: fc.dictionary(fc.stringMatching(/^X-[A-Za-z]{1,6}$/), text, { maxKeys: 2 }),
            allowed_tools: fc.oneof(
              fc.array(toolName, { maxLength: 2 }),
              fc.record({ tool_names: fc.array(toolName, { maxLength: 2 }), read_only: fc.boolean() }, { requiredKeys: [] }),
            ),
            require_approval: fc.oneof(
              fc.constantFrom('always', 'never', null),
              fc.record(
                {
                  always: fc.record({ tool_names: fc.array(toolName, { maxLength: 2 }) }),
                  never: fc.record({ tool_names: fc.array(toolName), read_only: fc.boolean() }, { requiredKeys: [] }),
                },
                { requiredKeys: [] },
              ),
            ),
            server_description: text,
            defer_loading: fc.boolean(),
          },
          { requiredKeys: ['type', 'server_label'] },
        ),
      ),
      { minLength: 1, maxLength: 3 },
    ),
    tool_choice: fc.oneof(
      fc.constantFrom('auto', 'none', 'required'),
      toolName.map((name) => ({ type: 'function', name })),
      label.map((server_label) => ({ type: 'mcp', server_label })),
    ),
    parallel_tool_calls: fc.boolean(),
    max_output_tokens: fc.integer({ min: 16, max: 100_000 }),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    reasoning: fc.record({ effort: fc.constantFrom('minimal', 'low', 'medium', 'high'), summary: fc.constantFrom('auto', 'concise', 'detailed') }),
    store: fc.boolean(),
    previous_response_id: fc.stringMatching(/^resp_[a-z0-9]{1,10}$/),
    metadata: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), text, { maxKeys: 3 }),
    x_vendor_field: fc.jsonValue(),
  },
  { requiredKeys: ['model', 'input'] },
);

describe('property: request decode then encode is the identity', () => {
  it('on generated bodies (reasoning items, calls, unknown top-level fields)', () => {
    roundTrips(request, openaiResponses.request);
  });
});

const outputItem = fc.oneof(
  mcpItem,
  fc.record({
    type: fc.constant('reasoning'),
    id: fc.stringMatching(/^rs_[a-z0-9]{1,8}$/),
    summary: fc.array(
      text.map((value) => ({ type: 'summary_text', text: value })),
      { maxLength: 2 },
    ),
  }),
  fc.record({
    id: fc.stringMatching(/^msg_[a-z0-9]{1,8}$/),
    type: fc.constant('message'),
    status: fc.constant('completed'),
    role: fc.constant('assistant'),
    content: fc.array(
      text.map((value) => ({ type: 'output_text', text: value, annotations: [] })),
      { minLength: 1, maxLength: 2 },
    ),
  }),
  fc.record({
    id: fc.stringMatching(/^fc_[a-z0-9]{1,8}$/),
    type: fc.constant('function_call'),
    status: fc.constant('completed'),
    call_id: callId,
    name: toolName,
    arguments: jsonArgs,
  }),
);
const answer = fc.record({
  id: fc.stringMatching(/^resp_[A-Za-z0-9]{1,10}$/),
  object: fc.constant('response'),
  created_at: fc.integer({ min: 0, max: 2_000_000_000 }),
  status: fc.constant('completed'),
  model: fc.constantFrom('gpt-5', 'gpt-4.1'),
  output: fc.array(outputItem, { minLength: 1, maxLength: 4 }),
  usage: fc.tuple(fc.nat(10_000), fc.nat(10_000), fc.nat(100)).map(([input, output, reasoning]) => ({
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output + reasoning,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output + reasoning,
  })),
});

describe('property: response decode then encode is the identity', () => {
  it('on generated answers with reasoning, messages and calls', () => {
    roundTrips(answer, openaiResponses.response);
  });
});

describe('property: stream deltas accumulate to the joined text and arguments', () => {
  it('for any split of the text and of the arguments', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 8 }), jsonArgs, fc.array(fc.nat(), { maxLength: 5 }), async (pieces, args, cuts) => {
        const offsets = [...new Set(cuts.map((cut) => cut % (args.length + 1)))].sort((a, b) => a - b);
        const argPieces = [...offsets, args.length].map((end, index, all) => args.slice(index === 0 ? 0 : all[index - 1], end));
        const joined = pieces.join('');
        const response = { id: 'resp_p', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt-5', output: [] as unknown[] };
        const message = {
          id: 'msg_1',
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: joined, annotations: [] }],
        };
        const call = { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'f', arguments: args };
        let sequence = 0;
        const event = (type: string, fields: Record<string, unknown>) => ({ type, sequence_number: sequence++, ...fields });
        const payloads = [
          event('response.created', { response }),
          event('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } }),
          event('response.content_part.added', {
            output_index: 0,
            item_id: 'msg_1',
            content_index: 0,
            part: { type: 'output_text', text: '', annotations: [] },
          }),
          ...pieces.map((delta) => event('response.output_text.delta', { output_index: 0, item_id: 'msg_1', content_index: 0, delta })),
          event('response.output_text.done', { output_index: 0, item_id: 'msg_1', content_index: 0, text: joined }),
          event('response.content_part.done', { output_index: 0, item_id: 'msg_1', content_index: 0, part: message.content[0] }),
          event('response.output_item.done', { output_index: 0, item: message }),
          event('response.output_item.added', { output_index: 1, item: { ...call, status: 'in_progress', arguments: '' } }),
          ...argPieces.map((delta) => event('response.function_call_arguments.delta', { output_index: 1, item_id: 'fc_1', delta })),
          event('response.function_call_arguments.done', { output_index: 1, item_id: 'fc_1', arguments: args }),
          event('response.output_item.done', { output_index: 1, item: call }),
          event('response.completed', { response: { ...response, status: 'completed', output: [message, call] } }),
        ];
        const events = await runTransform<unknown, LlmStreamEvent>(
          openaiResponses.stream.decode(),
          payloads.map((payload) => ({ event: payload.type, data: JSON.stringify(payload) })),
        );
        const streamed = accumulateEvents(events);
        expect(streamed.choices[0]?.finishReason).toBe('tool_calls');
        expect(streamed.choices[0]?.content.map((part) => (part.type === 'text' ? part.text : part.type === 'tool-call' ? part.arguments : part.type))).toEqual(
          [joined, args],
        );
      }),
      propertyRuns(200),
    );
  });
});
