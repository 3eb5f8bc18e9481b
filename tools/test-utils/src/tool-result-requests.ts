// A canonical request whose tool results lose something in every encoder that has no error flag
// or no media in tool outputs: shared by the codecs' tests of where those losses are reported.
// Untyped here (core's tests use these helpers, so they cannot import core): tests cast it.

/** Two calls, their results (one with an error flag, one with text, JSON and an image), a foreign provider part. */
export const TOOL_RESULTS_WITH_LOSSES: unknown = {
  model: 'm',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'x' }] },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', id: 'a', name: 'f', arguments: '{}' },
        { type: 'tool-call', id: 'b', name: 'f', arguments: '{}' },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'a', content: 'plain', isError: true },
        {
          type: 'tool-result',
          toolCallId: 'b',
          content: [
            { type: 'text', text: 't' },
            { type: 'json', value: { k: 1 } },
            { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } },
          ],
          isError: true,
        },
        { type: 'provider', protocol: 'claude', value: { type: 'odd' } },
      ],
    },
  ],
};
