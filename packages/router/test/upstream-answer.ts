// Transport answers for router tests: a status, a content type and a body served as chunks.
import type { UpstreamResponse } from '../src/config.js';

export const encoder = new TextEncoder();

/** Upstream body chunks read through `read` (the n-th call, 0-based); `onReturn` sees the cancel. */
export function chunkSource(read: (index: number) => Promise<IteratorResult<Uint8Array>>, onReturn?: () => void): AsyncIterableIterator<Uint8Array> {
  let index = 0;
  const iterator: AsyncIterableIterator<Uint8Array> = {
    [Symbol.asyncIterator]: () => iterator,
    next: () => read(index++),
    return: async () => {
      onReturn?.();
      return { done: true, value: undefined };
    },
  };
  return iterator;
}

/** A transport answer: status, content type, and a body served as chunks (never ending when `hang`). */
export function answer(
  status: number,
  contentType: string,
  chunks: readonly string[],
  options: { hang?: boolean; onReturn?: () => void } = {},
): UpstreamResponse {
  const text = chunks.join('');
  return {
    status,
    headers: { get: (name: string) => (name === 'content-type' ? contentType : null) },
    body: null,
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
    chunks: () =>
      chunkSource((index) => {
        const chunk = chunks[index];
        if (chunk !== undefined) return Promise.resolve({ done: false, value: encoder.encode(chunk) });
        return options.hang ? new Promise(() => undefined) : Promise.resolve({ done: true, value: undefined });
      }, options.onReturn),
  };
}
