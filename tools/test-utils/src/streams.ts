// Helpers to drive Web streams from tests: bytes split at chosen offsets, transforms fed from
// arrays, readables collected into arrays.

/** A readable stream that yields `chunks` in order. */
export function streamOf<T>(chunks: Iterable<T>): ReadableStream<T> {
  const items = [...chunks];
  return new ReadableStream<T>({
    pull(controller) {
      const next = items.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
}

/** Every item of a readable stream. */
export async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

/** Feeds `inputs` through `transform` and returns everything it produced. */
export async function runTransform<I, O>(transform: TransformStream<I, O>, inputs: Iterable<I>): Promise<O[]> {
  return collect(streamOf(inputs).pipeThrough(transform));
}

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** `bytes` cut at the given offsets (sorted, deduplicated, 0 < offset < length). */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(offsets)].filter((offset) => offset > 0 && offset < bytes.length).sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    chunks.push(bytes.subarray(start, cut));
    start = cut;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

/** `bytes` one byte per chunk. */
export function byteAtATime(bytes: Uint8Array): Uint8Array[] {
  return Array.from({ length: bytes.length }, (_, index) => bytes.subarray(index, index + 1));
}

/**
 * Split points to test: every offset when the input is at most `limit` bytes, else a seeded
 * sample of `limit` offsets (deterministic, so a failure reproduces).
 */
export function splitOffsets(length: number, limit = 400, seed = 42): number[] {
  if (length - 1 <= limit) return Array.from({ length: Math.max(0, length - 1) }, (_, index) => index + 1);
  let state = seed >>> 0;
  const next = (): number => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const offsets = new Set<number>();
  while (offsets.size < limit) offsets.add(1 + Math.floor(next() * (length - 1)));
  return [...offsets].sort((a, b) => a - b);
}

/** What `run` throws (`undefined` when it returns): for asserting on an error's fields. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
