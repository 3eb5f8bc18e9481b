import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ReadableChunks } from './readable-chunks.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (chunk: Uint8Array | undefined) => (chunk ? new TextDecoder().decode(chunk) : undefined);

/** A byte stream the test pushes into by hand. */
function pushed(): Readable {
  return new Readable({ read() {} });
}

/** What each of `reads` reads gave: the text, `done`, or the error's code / message. */
async function outcomes(iterator: AsyncIterator<Uint8Array>, reads: number, between: (read: number) => void): Promise<string[]> {
  const seen: string[] = [];
  for (let read = 0; read < reads; read++) {
    const pending = iterator.next();
    between(read);
    try {
      const result = await pending;
      seen.push(result.done ? 'done' : `chunk ${text(result.value)}`);
    } catch (error) {
      const { code, message } = error as { code?: string; message: string };
      seen.push(`error ${code ?? message}`);
    }
  }
  return seen;
}

/** The same scenario read by node's own iterator and by ReadableChunks: what both give. */
async function both(reads: number, drive: (stream: Readable, read: number) => void, before?: (stream: Readable) => void) {
  const run = async (iterate: (stream: Readable) => AsyncIterator<Uint8Array>) => {
    const stream = pushed();
    before?.(stream);
    return outcomes(iterate(stream), reads, (read) => drive(stream, read));
  };
  return {
    node: await run((stream) => stream[Symbol.asyncIterator]()),
    ours: await run((stream) => new ReadableChunks(stream)),
  };
}

describe('ReadableChunks', () => {
  it('takes everything buffered in one read, waits for more, then ends, as node reads it', async () => {
    const { node, ours } = await both(
      3,
      (stream, read) => {
        if (read === 1) stream.push(bytes('c'));
        if (read === 2) stream.push(null);
      },
      (stream) => {
        stream.push(bytes('a'));
        stream.push(bytes('b'));
      },
    );
    expect(ours).toEqual(['chunk ab', 'chunk c', 'done']);
    expect(ours).toEqual(node);
  });

  it('keeps answering done after the end', async () => {
    const { node, ours } = await both(3, (stream, read) => {
      if (read === 0) stream.push(null);
    });
    expect(ours).toEqual(['done', 'done', 'done']);
    expect(ours).toEqual(node);
  });

  it('rejects the waiting read with the stream error once, then is over', async () => {
    const { node, ours } = await both(3, (stream, read) => {
      if (read === 0) stream.push(bytes('a'));
      if (read === 1) stream.destroy(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
    });
    expect(ours).toEqual(['chunk a', 'error ECONNRESET', 'done']);
    expect(ours).toEqual(node);
  });

  it('drops what was buffered when the stream errs before the read, as node does', async () => {
    const { node, ours } = await both(
      2,
      () => undefined,
      (stream) => {
        stream.push(bytes('lost'));
        stream.destroy(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
      },
    );
    expect(ours).toEqual(['error ECONNRESET', 'done']);
    expect(ours).toEqual(node);
  });

  it('rejects a read when the stream closes before its end (a premature close)', async () => {
    const { node, ours } = await both(2, (stream, read) => {
      if (read === 0) stream.destroy();
    });
    expect(ours).toEqual(['error ERR_STREAM_PREMATURE_CLOSE', 'done']);
    expect(ours).toEqual(node);
  });

  it('destroys the stream on return(), ending a read that waits', async () => {
    const stream = pushed();
    const chunks = new ReadableChunks(stream);
    const waiting = chunks.next().catch((error: { code?: string }) => error.code);
    expect(await chunks.return()).toEqual({ done: true, value: undefined });
    expect(stream.destroyed).toBe(true);
    expect(await waiting).toBe('ERR_STREAM_PREMATURE_CLOSE');
  });
});
