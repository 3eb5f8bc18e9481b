// function_call and function_call_output items of every shape, each sent after a user message
// and between other items: the decoder reads the well-formed ones directly and the rest through
// the checked readers. Shared by call-item-shapes.test.ts and the script that wrote its expected file.
const user = { role: 'user', content: 'x' };

const CALLS: unknown[] = [
  { type: 'function_call', call_id: 'c', name: 'f', arguments: '{"a":1}' },
  { type: 'function_call', call_id: 'c', name: 'f', arguments: '' },
  { type: 'function_call', call_id: 'c', name: 'f', arguments: '{"a":' },
  { type: 'function_call', call_id: 'c', name: 'f', arguments: '{"a":{"b":[1,{"c":null}]}}' },
  { type: 'function_call', call_id: 'c', name: 'f', arguments: 'nope' },
  { type: 'function_call', call_id: 'c', name: 'f', arguments: null },
  { type: 'function_call', call_id: 'c', name: 'f', arguments: { a: 1 } },
  { type: 'function_call', call_id: 'c', name: 'f' },
  { type: 'function_call', call_id: 7, name: 'f', arguments: '{}' },
  { type: 'function_call', call_id: 7, name: 'f', arguments: 'bad' },
  { type: 'function_call', name: 'f', arguments: '{}' },
  { type: 'function_call', call_id: 'c', name: null, arguments: '{}' },
  { type: 'function_call', call_id: 'c', arguments: '{}' },
  { type: 'function_call', call_id: 'c', name: 'f', namespace: 'ns', arguments: '{}' },
  { type: 'function_call', call_id: 'c', name: 'f', namespace: 3, arguments: '{}' },
  { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}', id: 'fc_1', status: 'completed', extra: { k: null } },
];

const OUTPUTS: unknown[] = [
  { type: 'function_call_output', call_id: 'c', output: 'done' },
  { type: 'function_call_output', call_id: 'c', output: '' },
  { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 't' }] },
  { type: 'function_call_output', call_id: 'c', output: null },
  { type: 'function_call_output', call_id: 'c', output: 4 },
  { type: 'function_call_output', call_id: 'c' },
  { type: 'function_call_output', call_id: null, output: 'x' },
  { type: 'function_call_output', output: 'x' },
  { type: 'function_call_output', call_id: 'c', output: 'x', id: 'fco_1', status: 'completed' },
  { type: 'custom_tool_call_output', call_id: 'c', output: 'x' },
];

/** Each call and output alone after a user message, then runs that join or split messages. */
export const CALL_ITEM_BODIES: unknown[] = [
  ...CALLS.map((call) => ({ model: 'm', input: [user, call] })),
  ...OUTPUTS.map((output) => ({ model: 'm', input: [user, output] })),
  {
    model: 'm',
    input: [
      user,
      CALLS[0],
      CALLS[13],
      { type: 'reasoning', id: 'rs_1', summary: [] },
      CALLS[15],
      OUTPUTS[0],
      OUTPUTS[8],
      OUTPUTS[1],
      OUTPUTS[9],
      { type: 'local_shell_call_output', call_id: 'c', output: 'o' },
      OUTPUTS[0],
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] },
      CALLS[1],
      { type: 'mcp_approval_response', approval_request_id: 'r', approve: true },
      OUTPUTS[2],
      CALLS[0],
    ],
  },
];

/** Tool calls whose names are qualified or not, plain and freeform, for the encoder. */
export const CALL_NAME_REQUEST: unknown = {
  model: 'm',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'x' }] },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', id: 'a', name: 'ns.f', arguments: '{}' },
        { type: 'tool-call', id: 'b', name: 'f', arguments: { k: 1 } },
        { type: 'tool-call', id: 'c', name: '.f', arguments: '{}' },
        { type: 'tool-call', id: 'd', name: 'f.', arguments: '{}' },
        { type: 'tool-call', id: 'e', name: 'a.b.c', arguments: '{}' },
        { type: 'tool-call', id: 'f', name: 'ns.code', arguments: 'print(1)', freeform: true },
        { type: 'tool-call', id: 'g', name: 'code', arguments: 'print(2)', freeform: true },
      ],
    },
  ],
};
