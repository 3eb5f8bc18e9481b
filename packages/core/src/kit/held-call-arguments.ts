import { objectCallArguments, type CallArgumentsLoss } from '../content.js';

/**
 * A streamed tool call's argument text for a wire whose calls carry a JSON object (Claude and
 * Converse `input`). Text that opens a JSON object streams as it comes; until it does (blank, or
 * it opens with something else) it is held back, and at the block's end it becomes what a body
 * writes for it: `{}`, reported when it was not blank.
 */
export class HeldCallArguments {
  private held: string | undefined;
  private streaming = false;

  /** The text to send now for `json`: itself once streaming, the held text when it opens an object, else nothing. */
  push(json: string): string | undefined {
    if (this.streaming) return json;
    this.held = (this.held ?? '') + json;
    if (!this.held.trimStart().startsWith('{')) return undefined;
    const text = this.held;
    this.held = undefined;
    this.streaming = true;
    return text;
  }

  /**
   * At the block's end: held text is never an object (one would have streamed), so the call's
   * input stays the `{}` its start wrote; `report` hears the loss unless the text was blank.
   */
  end(report: (loss: CallArgumentsLoss) => void): void {
    if (this.held !== undefined) objectCallArguments(this.held, false, report);
    this.held = undefined;
  }
}
