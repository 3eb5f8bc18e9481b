import { contentPartPath } from '../validate.js';
import type { ChildPath } from './child-path.js';

/**
 * The path of the message part an encoder is at (`messages[2].content[1]`), kept as two indexes
 * and joined only when read (`String(path)` or a template literal). Encoders hand a path to every
 * part and most parts report no loss, so a long history then joins no string per part. One is
 * moved along a request's parts, not made per part: read it when reporting, never keep it.
 */
export class PartPath {
  /** Index of the message in `messages`. */
  message = 0;
  /** Index of the part in the message's `content`. */
  part = 0;

  toString(): string {
    return contentPartPath(`messages[${this.message}]`, this.part);
  }
}

/** A path reported at or read under: a joined string, or a {@link PartPath} / {@link ChildPath} joined when read. */
export type PathLike = string | PartPath | ChildPath;

/**
 * The path of part `index` of a message, as a string: under a message path (`choices[0]` ->
 * `choices[0].content[1]`), or a {@link PartPath} moved to that part and read. For encoders that
 * are given either (a request's messages by cursor, an answer's one message by its path).
 */
export function partPathAt(message: string | PartPath, index: number): string {
  if (typeof message === 'string') return contentPartPath(message, index);
  message.part = index;
  return String(message);
}
