import type { CallArgumentsLoss } from '../content.js';

/**
 * A streamed tool call's argument text for a wire whose calls carry a JSON object (Claude and
 * Converse `input`). Text that opens a JSON object streams as it comes; until it does (blank, or
 * it opens with something else) it is held back, and at the block's end it becomes what a body
 * writes for it: `{}`, reported when it was not blank.
 */
export class HeldCallArguments {
  /** `waiting`: only blank text so far; `streaming`: it opened an object; `refused`: it opened with something else. */
  private mode: 'waiting' | 'streaming' | 'refused' = 'waiting';
  /** The blank text held while waiting (sent ahead of the object's first chunk). */
  private blank = '';

  /** The text to send now for `json`: itself once streaming, the held text when it opens an object, else nothing. */
  push(json: string): string | undefined {
    if (this.mode === 'streaming') return json;
    if (this.mode === 'refused') return undefined;
    // Decided by the first non-blank character, once: later chunks are not looked at again.
    const first = json.trimStart();
    if (first === '') {
      this.blank += json;
      return undefined;
    }
    if (first[0] !== '{') {
      this.mode = 'refused';
      return undefined;
    }
    this.mode = 'streaming';
    const text = this.blank + json;
    this.blank = '';
    return text;
  }

  /** At the block's end: text that opened with anything but `{` is not an object (the call's input stays the `{}` its start wrote). */
  end(report: (loss: CallArgumentsLoss) => void): void {
    if (this.mode === 'refused') report('not-an-object');
    this.mode = 'waiting';
    this.blank = '';
  }
}
