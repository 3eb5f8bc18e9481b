// Request bodies whose messages or blocks are malformed at several positions (the decoder joins
// a message's and a block's path only for an error, through one ChildPath chain): shared by
// block-errors.test.ts and the script that wrote its expected file.
const good = [
  { role: 'user', content: 'go' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'a' },
      { type: 'tool_use', id: 't1', name: 'f', input: {} },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 't1', content: 'ok' },
      { type: 'text', text: 'more' },
    ],
  },
];

const BAD_MESSAGES: unknown[] = [
  7,
  { role: 'robot', content: 'x' },
  { role: 'user', content: 5 },
  { role: 'assistant', content: null },
  { role: 'user', content: [{ type: 'text', text: 'a' }, 'not a block'] },
  { role: 'assistant', content: [{ type: 'text', text: 1 }] },
  { role: 'assistant', content: [{ type: 'text', text: 'a', citations: 'x' }] },
  { role: 'assistant', content: [{ type: 'tool_use', name: 'f', input: {} }] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'f', input: [] }] },
  { role: 'assistant', content: [{ type: 'thinking', thinking: 't' }] },
  { role: 'assistant', content: [{ type: 'redacted_thinking' }] },
  { role: 'assistant', content: [{ type: 'mcp_tool_use', id: 'm', name: 'n', input: {} }] },
  { role: 'assistant', content: [{ type: 'mcp_tool_listing', mcp_server_name: 's', tools: 'x' }] },
  { role: 'assistant', content: [{ type: 7 }] },
  { role: 'user', content: [{ type: 'tool_result', content: 'x' }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 2 }] }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: ['x'] }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x', is_error: 'yes' }] },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 't', content: 'x' },
      { type: 'image', source: 'x' },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'a' },
      { type: 'document', source: 3 },
    ],
  },
  {
    role: 'system',
    content: [
      { type: 'text', text: 's' },
      { type: 'image', source: { type: 'url', url: 'https://x' } },
    ],
  },
  { role: 'system', content: [{ type: 'text', text: 5 }] },
];

/** Each bad message after three good ones (so at messages[3]), and one at the start. */
export const BAD_BLOCK_BODIES: unknown[] = [
  ...BAD_MESSAGES.map((message) => ({ model: 'm', max_tokens: 10, messages: [...good, message] })),
  { model: 'm', max_tokens: 10, messages: [BAD_MESSAGES[5], ...good] },
];
