// Encoding a value while collecting where its losses were reported: for tests that pin the code
// and the path of every warning next to the wire.

/** A reported loss as such tests compare it. */
export interface LossAt {
  code: string;
  path?: string;
}

/** `encode(value)` with a context that collects warnings; returns the wire and each warning's code and path. */
export function encodeWithLosses<V, W>(encode: (value: V, context: { warn: (warning: LossAt) => void }) => W, value: V): { wire: W; losses: LossAt[] } {
  const losses: LossAt[] = [];
  const wire = encode(value, { warn: ({ code, path }) => losses.push({ code, path }) });
  return { wire, losses };
}
