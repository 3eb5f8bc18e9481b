import { LlmError, type LlmRequest } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { checkCapabilities } from '../src/capabilities.js';

function failure(request: LlmRequest, capabilities: Parameters<typeof checkCapabilities>[1]): { kind: string; path?: string; message: string } | undefined {
  try {
    checkCapabilities(request, capabilities, 'up');
    return undefined;
  } catch (error) {
    if (!LlmError.isInstance(error)) throw error;
    return { kind: error.kind, path: error.path, message: error.message };
  }
}

const pdf = { kind: 'base64' as const, mediaType: 'application/pdf', data: 'JVBERi0=' };

describe('checkCapabilities', () => {
  const request: LlmRequest = {
    model: 'm',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'read' },
          { type: 'file', source: pdf, citations: true },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'look', arguments: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }] }] },
    ],
    tools: [{ type: 'function', name: 'look' }],
    reasoning: { effort: 'low' },
  };

  it('passes what the upstream can do (capabilities absent or true)', () => {
    expect(failure(request, undefined)).toBeUndefined();
    expect(failure(request, { images: true, tools: true, reasoning: true, citations: true })).toBeUndefined();
  });

  it('names the first part or field the upstream cannot take', () => {
    expect(failure(request, { tools: false })).toEqual({ kind: 'unsupported', path: 'tools', message: 'upstream up does not support tools' });
    expect(failure(request, { reasoning: false })).toEqual({ kind: 'unsupported', path: 'reasoning', message: 'upstream up does not support reasoning' });
    expect(failure(request, { images: false })).toEqual({
      kind: 'unsupported',
      path: 'messages[2].content[0]',
      message: 'upstream up does not support images',
    });
    expect(failure(request, { citations: false })).toEqual({
      kind: 'unsupported',
      path: 'messages[0].content[1]',
      message: 'upstream up does not support citations',
    });
  });

  it('a document sent without a citation request passes an upstream without citations', () => {
    const plain: LlmRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'file', source: pdf }] }] };
    expect(failure(plain, { citations: false })).toBeUndefined();
  });
});
