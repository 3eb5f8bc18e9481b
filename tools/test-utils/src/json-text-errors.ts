// What a decoder must answer for tool-call argument text that is not JSON: shared by the codecs
// whose history carries arguments as text (Chat, Responses).

/** Argument text JSON.parse refuses, each close to what a fast path might wrongly accept. */
export const NOT_JSON_TEXTS: readonly string[] = [
  '{bad',
  '{"a":1,}',
  '{"a":01}',
  '{"a":"\u0001"}',
  '{"a":"\\x"}',
  '{"a":1}}',
  '{"a":[1,]}',
  '\ufeff{}',
  '{"a":1} x',
  ' ',
  '{"a":NaN}',
  `{"a":"${'y'.repeat(9000)}"`,
];

/** A decode failure as tests compare it. */
export interface DecodeFailure {
  message: string;
  path?: string;
  status: number;
}

/**
 * The error a decoder gives for argument text at `path`, built from JSON.parse's own message, or
 * `undefined` when JSON.parse accepts the text.
 */
export function notJsonTextError(text: string, path: string): DecodeFailure | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const shown = text.length > 40 ? 'a string' : `"${text}"`;
    return { message: `${path}: expected JSON text, got ${shown} (${(error as Error).message})`, path, status: 400 };
  }
}

/** What `decode(wire)` throws (an `LlmError`'s message, path and status), or `undefined`. */
export function decodeFailure(decode: (wire: unknown) => unknown, wire: unknown): DecodeFailure | undefined {
  try {
    decode(wire);
    return undefined;
  } catch (error) {
    const { message, path, status } = error as { message: string; path?: string; status: number };
    if (typeof status !== 'number') throw error;
    return { message, path, status };
  }
}
