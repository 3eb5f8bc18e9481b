/**
 * An estimate of the heap a JSON-like value holds, for budgets (the state store's): one walk, no
 * copy, no serialization, iterative (a deep value cannot overflow the stack).
 *
 * Strings count their length in UTF-16 code units: V8 keeps Latin-1 text (ASCII, base64 media)
 * at one byte per unit, so that is its real size, while other text takes up to twice it. Every
 * object, array and primitive adds a fixed {@link NODE_OVERHEAD_BYTES} for its slot and header,
 * object keys add their length. The cost is one visit per node: large strings cost nothing more.
 */

/** What each value, object or array adds besides its strings' lengths. */
export const NODE_OVERHEAD_BYTES = 16;

/**
 * The estimate, or a number above `limit` as soon as the walk passes it. Each value is counted as
 * it is pushed and the walk returns the moment the sum passes `limit`, so a huge or cyclic value
 * costs at most `limit / NODE_OVERHEAD_BYTES + 1` values read and pushed, one array of millions
 * included (the engine still lists a huge object's keys once as `for...in` starts on it).
 */
export function estimateValueSize(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let size = NODE_OVERHEAD_BYTES;
  const pending: unknown[] = [value];
  while (pending.length > 0 && size <= limit) {
    const item = pending.pop();
    if (typeof item === 'string') size += item.length;
    else if (Array.isArray(item)) {
      for (const element of item) {
        size += NODE_OVERHEAD_BYTES;
        if (size > limit) return size;
        pending.push(element);
      }
    } else if (typeof item === 'object' && item !== null) {
      for (const key in item) {
        size += NODE_OVERHEAD_BYTES + key.length;
        if (size > limit) return size;
        pending.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return size;
}
