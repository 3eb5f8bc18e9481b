import { joinPath, type PathKey } from '../validate.js';
import type { PathLike } from './part-path.js';

/**
 * The JSON path `parent` + `key` (`messages[3]`, `messages[3].content`), joined only when read
 * (`String(path)`, a template literal, or a wire reader's error). Chained and mutable: a decoder
 * makes one chain per request and moves the keys along (`path.key = index`), so a long history
 * joins no string per message or block unless one fails. Read it when reporting, never keep it.
 */
export class ChildPath {
  constructor(
    readonly parent: PathLike,
    public key: PathKey,
  ) {}

  toString(): string {
    return joinPath(String(this.parent), this.key);
  }
}
