import type { LlmAssistantContent } from '@llm/core';

/**
 * Gemini may send function calls without ids (older models, and every model before Gemini 3 in
 * history). Other protocols need one to pair a result with its call, so the decoder makes them up:
 * stable for a given input (the same history decodes to the same ids) and unique within it.
 * Results without an id are paired with the calls of the model turn before them by name, then
 * by order. Encoding back to Gemini omits made-up ids (marked `$syntheticId`); ids from other
 * protocols are sent as they are, which the API accepts.
 */
export class CallIds {
  /** The parts of the last model turn, whose calls results without an id answer. */
  private turn: readonly LlmAssistantContent[] = [];
  /** That turn's calls, listed when the first result without an id comes (most results have one). */
  private pending: Array<{ id: string; name: string; used: boolean }> | undefined;
  private count = 0;

  constructor(private readonly prefix: string) {}

  /**
   * Starts a model turn: results that follow answer the calls among `parts` (read when such a
   * result comes, so the array may still be filling).
   */
  modelTurn(parts: readonly LlmAssistantContent[] = []): void {
    this.turn = parts;
    this.pending = undefined;
  }

  /** An id for a call that came without one. */
  call(_name: string): string {
    return `${this.prefix}${this.count++}`;
  }

  /** The id of the call a result without an id answers. */
  result(name: string): string {
    const pending = (this.pending ??= this.turn.flatMap((part) => (part.type === 'tool-call' ? [{ id: part.id, name: part.name, used: false }] : [])));
    const match = pending.find((call) => !call.used && call.name === name) ?? pending.find((call) => !call.used);
    if (match) {
      match.used = true;
      return match.id;
    }
    return `${this.prefix}${this.count++}`;
  }
}

/**
 * Whether `id` is one the decoder made up for a call of response `responseId` (see
 * `callIdPrefix`). Answers accumulated from a stream carry no `$syntheticId` mark, so encoders
 * recognise these ids by their shape and leave them out, as Gemini sent them.
 */
export function isMadeUpId(id: string, responseId: string | undefined): boolean {
  if (responseId === undefined) return false;
  const prefix = `call_${responseId}_`;
  return id.length > prefix.length && id.startsWith(prefix) && /^\d+$/.test(id.slice(prefix.length));
}
