import type { SseEvent } from './types.js';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
/** {@link fieldAt}'s answers: the length of the field's prefix. */
const DATA = 5;
const EVENT = 6;

/**
 * Reads the plain events at the start of `text`, the form nearly every upstream writes: an
 * optional `event:` line, one `data:` line and a blank line, every line ending in LF or CRLF.
 * Each event is emitted once read whole (its blank line seen). Returns where the plain events
 * stop: `text.length` when the text is nothing else, otherwise the start of the first event that
 * is not plain (a comment, an `id:` or `retry:` line, several `data:` lines, a lone CR, or an
 * event cut off at the end), whose text the general parser must read from there.
 *
 * Only for a parser with nothing buffered (at an event boundary), so that what is read here is
 * exactly what the general parser would read: the same `event` (an empty name is none), `data`
 * with one leading space dropped, and `id` undefined.
 */
export function readPlainEvents(text: string, emit: (event: SseEvent) => void): number {
  const length = text.length;
  let at = 0;
  /** Index of the next CR at or after `at` (or -1): a CR may only end a line as CRLF here. */
  let cr = text.indexOf('\r');
  while (at < length) {
    const start = at;
    let name: string | undefined;
    const field = fieldAt(text, at);
    if (field === EVENT) {
      const lf = text.indexOf('\n', at);
      if (lf < 0) return start;
      const end = cr >= 0 && cr < lf ? lf - 1 : lf;
      if (end !== lf && cr !== end) return start;
      const valueStart = text.charCodeAt(at + 6) === SPACE ? at + 7 : at + 6;
      name = valueStart < end ? text.slice(valueStart, end) : undefined;
      at = lf + 1;
      if (end !== lf) cr = text.indexOf('\r', at);
    }
    if ((field === EVENT ? fieldAt(text, at) : field) !== DATA) return start;
    const lf = text.indexOf('\n', at);
    if (lf < 0) return start;
    const end = cr >= 0 && cr < lf ? lf - 1 : lf;
    if (end !== lf && cr !== end) return start;
    const data = text.slice(text.charCodeAt(at + 5) === SPACE ? at + 6 : at + 5, end);
    at = lf + 1;
    if (end !== lf) cr = text.indexOf('\r', at);
    // The blank line that ends the event: LF, or CRLF.
    const first = text.charCodeAt(at);
    if (first === LF) at += 1;
    else if (first === CR && text.charCodeAt(at + 1) === LF) {
      at += 2;
      cr = text.indexOf('\r', at);
    } else return start;
    emit({ id: undefined, event: name, data });
  }
  return at;
}

/**
 * What the line at `at` is: `DATA` (it starts with `data:`), `EVENT` (`event:`) or neither (0).
 * Unrolled: this runs on every event, and a loop over the prefix's characters cost 5-10 % more.
 */
function fieldAt(text: string, at: number): number {
  // No helper closure for the character reads: a bundler keeping function names (esbuild's
  // `keepNames`, as tsx runs sources) would name a fresh one on every call.
  const first = text.charCodeAt(at);
  const second = text.charCodeAt(at + 1);
  const third = text.charCodeAt(at + 2);
  const fourth = text.charCodeAt(at + 3);
  const fifth = text.charCodeAt(at + 4);
  if (first === 0x64) return second === 0x61 && third === 0x74 && fourth === 0x61 && fifth === 0x3a ? DATA : 0;
  if (first === 0x65) return second === 0x76 && third === 0x65 && fourth === 0x6e && fifth === 0x74 && text.charCodeAt(at + 5) === 0x3a ? EVENT : 0;
  return 0;
}
