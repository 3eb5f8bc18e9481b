import { type HeaderReader, readableFrom } from '@llm/core';
import type { UpstreamResponse } from '../router-contract.js';

/** Response headers with some replaced (lower-case names), the rest read from the cloud's answer. */
export class OverriddenHeaders implements HeaderReader {
  constructor(
    private readonly base: HeaderReader,
    private readonly overrides: Readonly<Record<string, string>>,
  ) {}

  get(name: string): string | null {
    const lower = name.toLowerCase();
    return Object.hasOwn(this.overrides, lower) ? (this.overrides[lower] as string) : this.base.get(name);
  }
}

const NO_HEADERS: HeaderReader = { get: () => null };

/**
 * An upstream answer whose body the adapter produced: re-framed chunks (an AWS event stream as
 * SSE) or a whole text (an error body in the protocol's shape). Read once, like any answer.
 */
export class ReplacedAnswer implements UpstreamResponse {
  private stream: ReadableStream<Uint8Array> | undefined;

  constructor(
    readonly status: number,
    readonly headers: HeaderReader,
    private readonly source: AsyncIterable<Uint8Array> | string,
  ) {}

  /** A JSON answer made here (no cloud answer behind it). */
  static json(status: number, body: unknown, headers: HeaderReader = NO_HEADERS): ReplacedAnswer {
    return new ReplacedAnswer(status, new OverriddenHeaders(headers, { 'content-type': 'application/json' }), JSON.stringify(body));
  }

  get body(): ReadableStream<Uint8Array> {
    this.stream ??= readableFrom(this.chunks());
    return this.stream;
  }

  async text(): Promise<string> {
    if (typeof this.source === 'string') return this.source;
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of this.source) text += decoder.decode(chunk, { stream: true });
    return text + decoder.decode();
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  chunks(): AsyncIterable<Uint8Array> {
    const source = this.source;
    if (typeof source !== 'string') return source;
    return (async function* () {
      yield new TextEncoder().encode(source);
    })();
  }
}

/** An answer's body as chunks: its cheap `chunks()` when the transport has one, else its Web stream's. */
export function answerChunks(response: UpstreamResponse): AsyncIterable<Uint8Array> {
  return response.chunks?.() ?? streamChunks(response.body);
}

/** A Web stream's chunks; ending the iteration early cancels the stream. */
async function* streamChunks(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
