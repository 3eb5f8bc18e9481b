import { describe, expect, it } from 'vitest';
import { chunksOf, isReadableStream, readableFrom, stepIterable } from './step-iterator.js';
import { joinTextStep, type StreamStep } from './stream-step.js';

async function* from<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Splits comma-separated text into words; flush emits the trailing word. */
function words(): StreamStep<string, string> {
  let rest = '';
  return {
    transform(chunk, out) {
      const parts = (rest + chunk).split(',');
      rest = parts.pop() ?? '';
      for (const part of parts) out.enqueue(part);
    },
    flush(out) {
      if (rest) out.enqueue(rest);
    },
  };
}

/** A source whose second read waits until `return()` is called, counting returns. */
function hangingSource() {
  let released: ((result: IteratorResult<string>) => void) | undefined;
  const state = { returns: 0 };
  let reads = 0;
  const iterator: AsyncIterator<string> & AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => iterator,
    next: () => {
      reads += 1;
      if (reads === 1) return Promise.resolve({ done: false, value: 'a,' });
      return new Promise((resolve) => {
        released = resolve;
      });
    },
    return: async () => {
      state.returns += 1;
      released?.({ done: true, value: undefined });
      return { done: true, value: undefined };
    },
  };
  return { iterator, state };
}

describe('stepIterable', () => {
  it('runs the step over every chunk and the flush, in order, and ends once', async () => {
    let ends = 0;
    const out = await collect(stepIterable(from(['ab,c', 'd,', 'ef']), words(), { onEnd: () => (ends += 1) }));
    expect(out).toEqual(['ab', 'cd', 'ef']);
    expect(ends).toBe(1);
  });

  it('return() ends a pending read even when the source never settles it', async () => {
    let returns = 0;
    const source: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<string>>(() => undefined),
        return: async () => {
          returns += 1;
          return { done: true, value: undefined };
        },
      }),
    };
    const steps = stepIterable(source, words());
    const pending = steps.next();
    await steps.return?.();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(returns).toBe(1);
  });

  it('return() during a pending read ends the source at once and runs onEnd', async () => {
    const { iterator, state } = hangingSource();
    let ends = 0;
    const steps = stepIterable(iterator, words(), { onEnd: () => (ends += 1) });
    expect(await steps.next()).toEqual({ done: false, value: 'a' });
    const pending = steps.next();
    expect(await steps.return?.()).toEqual({ done: true, value: undefined });
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(state.returns).toBe(1);
    expect(ends).toBe(1);
  });

  it('a throwing step rejects the read, ends the source and runs onEnd', async () => {
    const { iterator, state } = hangingSource();
    let ends = 0;
    const failing: StreamStep<string, string> = {
      transform() {
        throw new Error('bad chunk');
      },
    };
    const steps = stepIterable(iterator, failing, { onEnd: () => (ends += 1) });
    await expect(steps.next()).rejects.toThrow('bad chunk');
    expect(state.returns).toBe(1);
    expect(ends).toBe(1);
    expect(await steps.next()).toEqual({ done: true, value: undefined });
  });
});

describe('stepIterable recovery', () => {
  it('a failing source read can end with a last output instead of an error', async () => {
    async function* broken(): AsyncGenerator<string> {
      yield 'ab,c';
      throw new Error('socket reset');
    }
    let ends = 0;
    const seen: string[] = [];
    const out = await collect(
      stepIterable(broken(), words(), {
        onEnd: () => (ends += 1),
        recover: (error, last) => {
          seen.push((error as Error).message);
          last.enqueue('[broken]');
          return true;
        },
      }),
    );
    expect(out).toEqual(['ab', '[broken]']);
    expect(seen).toEqual(['socket reset']);
    expect(ends).toBe(1);
  });

  it('without a recovery (or when it declines) the read rejects', async () => {
    async function* broken(): AsyncGenerator<string> {
      yield 'a,';
      throw new Error('socket reset');
    }
    const steps = stepIterable(broken(), words(), { recover: () => false });
    expect(await steps.next()).toEqual({ done: false, value: 'a' });
    await expect(steps.next()).rejects.toThrow('socket reset');
  });
});

describe('joinTextStep', () => {
  it('emits one string per input chunk, and one for the flush', async () => {
    expect(await collect(stepIterable(from(['ab,c', 'd,e,f,', 'gh']), joinTextStep(words())))).toEqual(['ab', 'cdef', 'gh']);
  });
});

describe('chunksOf and readableFrom', () => {
  it('iterates a ReadableStream, and return() cancels it while a read is pending', async () => {
    let cancelled = 0;
    const stream = new ReadableStream<string>({
      start(controller) {
        controller.enqueue('x');
      },
      cancel() {
        cancelled += 1;
      },
    });
    const iterator = chunksOf(stream)[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: 'x' });
    const pending = iterator.next();
    await iterator.return?.();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(cancelled).toBe(1);
  });

  it('tells a ReadableStream by its shape', () => {
    expect(isReadableStream(new ReadableStream())).toBe(true);
    expect(isReadableStream(from([1]))).toBe(false);
    expect(isReadableStream(null)).toBe(false);
    expect(isReadableStream('text')).toBe(false);
  });

  it('gives async iterables back as they are', () => {
    const source = from([1]);
    expect(chunksOf(source)).toBe(source);
  });

  it('makes a byte stream of text and bytes, and cancelling it returns the iterator', async () => {
    expect(await new Response(readableFrom(from<string | Uint8Array>(['hé', new Uint8Array([33])]))).text()).toBe('hé!');
    const { iterator, state } = hangingSource();
    const reader = readableFrom(iterator).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('a,');
    await reader.cancel();
    expect(state.returns).toBe(1);
  });
});
