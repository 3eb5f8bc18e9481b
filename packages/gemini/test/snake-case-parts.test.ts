// Gemini parses proto3 JSON: every field may come in its snake_case spelling. The part decoder
// reads the data fields and the thought signature by name on its hot path; both spellings must
// give the same canonical request.
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

const camelBody = {
  systemInstruction: { parts: [{ text: 'Be brief.' }] },
  contents: [
    {
      role: 'user',
      parts: [
        { text: 'Look at these.' },
        { inlineData: { mimeType: 'image/png', data: 'aGk=' } },
        { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf' } },
      ],
    },
    {
      role: 'model',
      parts: [
        { text: 'Thinking.', thought: true, thoughtSignature: 'sig-1' },
        { text: 'Calling.', thoughtSignature: 'sig-2' },
        { functionCall: { name: 'lookup', args: { q: 'x' }, id: 'c1' }, thoughtSignature: 'sig-3' },
      ],
    },
    { role: 'user', parts: [{ functionResponse: { name: 'lookup', id: 'c1', response: { output: 'found' } } }] },
  ],
};

const snakeBody = {
  system_instruction: { parts: [{ text: 'Be brief.' }] },
  contents: [
    {
      role: 'user',
      parts: [
        { text: 'Look at these.' },
        { inline_data: { mime_type: 'image/png', data: 'aGk=' } },
        { file_data: { mime_type: 'application/pdf', file_uri: 'https://example.com/a.pdf' } },
      ],
    },
    {
      role: 'model',
      parts: [
        { text: 'Thinking.', thought: true, thought_signature: 'sig-1' },
        { text: 'Calling.', thought_signature: 'sig-2' },
        { function_call: { name: 'lookup', args: { q: 'x' }, id: 'c1' }, thought_signature: 'sig-3' },
      ],
    },
    { role: 'user', parts: [{ function_response: { name: 'lookup', id: 'c1', response: { output: 'found' } } }] },
  ],
};

describe('request.decode: snake_case parts', () => {
  it('decode to exactly what their camelCase spelling decodes to', () => {
    const context = { model: 'gemini-2.5-flash' };
    const origin = { protocol: 'gemini', model: 'gemini-2.5-flash' };
    const expected = {
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look at these.' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'aGk=' } },
            { type: 'file', source: { kind: 'url', url: 'https://example.com/a.pdf', mediaType: 'application/pdf' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Thinking.', signature: 'sig-1', origin },
            { type: 'text', text: 'Calling.', signature: 'sig-2', origin },
            { type: 'tool-call', id: 'c1', name: 'lookup', arguments: { q: 'x' }, signature: 'sig-3', origin },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'lookup', content: 'found' }] },
      ],
    };
    expect(gemini.request.decode(camelBody, context)).toStrictEqual(expected);
    expect(gemini.request.decode(snakeBody, context)).toStrictEqual(expected);
  });
});
