// Canonical requests whose parts lose something on the way to Claude, in every kind of message
// and at several indexes, and with more cache breakpoints than Claude takes: shared by
// part-losses.test.ts and the script that wrote its expected file.
const foreign = { protocol: 'gemini', model: 'gemini-2.5-flash' };
const cache = { type: 'ephemeral' };

export const PART_LOSS_REQUESTS: unknown[] = [
  {
    model: 'claude-sonnet-4-5',
    messages: [
      { role: 'system', content: [{ type: 'text', text: 's', cache }] },
      {
        role: 'user',
        name: 'ann',
        content: [
          { type: 'text', text: 'a', cache },
          { type: 'image', source: { kind: 'url', url: 'https://x/y.png' }, detail: 'high' },
          { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'AAAA' } },
          { type: 'file', source: { kind: 'base64', mediaType: 'application/zip', data: 'AAAA' } },
          { type: 'provider', protocol: 'gemini', value: { odd: 1 } },
        ],
      },
      {
        role: 'assistant',
        name: 'bot',
        content: [
          { type: 'reasoning', text: 'r', signature: 'sig', origin: foreign },
          { type: 'reasoning', text: 'r2' },
          { type: 'text', text: 'b', signature: 'sig', origin: foreign, cache },
          { type: 'tool-call', id: 'c1', name: 'f', arguments: 'not json', signature: 'sig' },
          { type: 'tool-call', id: 'c2', name: 'g', arguments: '{"a":1}', cache },
          { type: 'mcp-call', id: 'm1', server: 's', name: 'n', arguments: '[1]' },
          { type: 'mcp-approval-request', id: 'ap', server: 's', name: 'n', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', content: 'plain', cache },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            content: [
              { type: 'text', text: 't', cache },
              { type: 'image', source: { kind: 'url', url: 'https://x/z.png' }, detail: 'low' },
              { type: 'json', value: { k: 1 } },
            ],
          },
          { type: 'provider', protocol: 'openai-chat', value: { type: 'odd' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'joined' },
          { type: 'reasoning', text: 'u', signature: 's', origin: foreign },
        ],
      },
      { role: 'system', content: [{ type: 'text', text: 'late', citations: [] }] },
      { role: 'user', content: [{ type: 'mcp-approval-response', approvalRequestId: 'ap', approve: true }] },
      { role: 'assistant', content: [{ type: 'text', text: 'end', cache }] },
    ],
  },
];
