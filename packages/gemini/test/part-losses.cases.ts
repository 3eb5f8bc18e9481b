// Canonical requests whose parts lose something on the way to Gemini, in every kind of message
// and at several indexes: shared by part-losses.test.ts and the script that wrote its expected file.
const foreign = { protocol: 'claude', model: 'claude-sonnet-4-5' };

export const PART_LOSS_REQUESTS: unknown[] = [
  {
    model: 'gemini-2.5-flash',
    messages: [
      { role: 'system', content: [{ type: 'text', text: 's' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', source: { kind: 'url', url: 'https://x/y.png' }, detail: 'high' },
          { type: 'file', source: { kind: 'file', fileId: 'file-1', provider: 'openai-chat' } },
          { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'AAAA' }, title: 'T' },
          { type: 'text', text: 'c', citations: [{ type: 'url', url: 'https://x', title: 't', citedText: 'c' }] },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'r', signature: 'sig', origin: foreign },
          { type: 'text', text: 'b', signature: 'sig', origin: foreign },
          { type: 'reasoning', text: 'r2', redacted: true },
          { type: 'tool-call', id: 'c1', name: 'f', arguments: '{"a":1}', signature: 'sig', origin: foreign },
          { type: 'tool-call', id: 'c2', name: 'g', arguments: 'not json' },
          { type: 'provider', protocol: 'claude', value: { type: 'odd' } },
          { type: 'mcp-call', id: 'm1', server: 's', name: 'n', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', content: 'plain' },
          { type: 'tool-result', toolCallId: 'zz', content: 'no name' },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'g',
            content: [
              { type: 'text', text: 't' },
              { type: 'image', source: { kind: 'url', url: 'https://x/z.png' }, detail: 'low' },
              { type: 'file', source: { kind: 'file', fileId: 'file-2', provider: 'claude' } },
            ],
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'g',
            content: [
              { type: 'json', value: { k: 1 } },
              { type: 'json', value: [2] },
              { type: 'text', text: 'x' },
            ],
          },
          { type: 'provider', protocol: 'openai-chat', value: { type: 'odd' } },
        ],
      },
      { role: 'system', content: [{ type: 'text', text: 'late' }] },
      {
        role: 'user',
        content: [
          { type: 'reasoning', text: 'u', origin: foreign },
          { type: 'provider', protocol: 'claude', value: { type: 'odd' } },
          { type: 'text', text: 'ok' },
        ],
      },
    ],
  },
];

/**
 * Histories whose results come without ids (paired with the calls of the model turn before them
 * by name, then in order) or whose calls do (made-up ids): the decoder lists a turn's calls only
 * when such a result comes.
 */
export const CALL_PAIRING_BODIES: unknown[] = [
  {
    contents: [
      { role: 'user', parts: [{ text: 'go' }] },
      {
        role: 'model',
        parts: [
          { text: 'x' },
          { functionCall: { name: 'f', args: { a: 1 } } },
          { functionCall: { name: 'g', args: {}, id: 'own-g' } },
          { functionCall: { name: 'f' } },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'g', response: { output: '1' } } }, { functionResponse: { name: 'h', response: { output: '2' } } }],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: '3' } } }, { text: 'more' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: '4' } } }] },
      { role: 'model', parts: [{ functionCall: { name: 'f', args: {}, id: 'k' } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', id: 'k', response: { output: '5' } } }, { functionResponse: { name: 'f', response: {} } }] },
      { role: 'model', parts: [{ text: 'no calls' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: '6' } } }] },
    ],
  },
  { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: 'first' } } }] }] },
];
