import { MAX_JSON_DEPTH, invalidUpstream, type JsonObject } from '@llm/core';
import { PROTOCOL } from './protocol.js';

type Wire = Record<string, unknown>;

const SEGMENT = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]/g;

/**
 * Vertex AI streams function-call arguments as `partialArgs` entries (`{jsonPath:"$.a.b[0]",
 * stringValue|numberValue|boolValue|nullValue, willContinue}`) across chunks; a string may arrive
 * in pieces. This assembles them into the arguments object.
 */
export class PartialArgs {
  readonly value: JsonObject = {};

  add(entries: unknown): void {
    if (!Array.isArray(entries)) return;
    for (const entry of entries as Wire[]) {
      if (typeof entry?.jsonPath !== 'string') continue;
      const keys: Array<string | number> = [];
      for (const match of entry.jsonPath.slice(1).matchAll(SEGMENT)) keys.push(match[2] !== undefined ? Number(match[2]) : (match[1] ?? match[3] ?? ''));
      if (keys.length === 0) continue;
      // The assembled arguments are serialised later: a path may not build them deeper than a body may be.
      if (keys.length >= MAX_JSON_DEPTH) throw invalidUpstream(PROTOCOL, 'stream chunk', { path: 'functionCall.partialArgs' });
      let value: unknown;
      if ('stringValue' in entry) value = entry.stringValue;
      else if ('numberValue' in entry) value = entry.numberValue;
      else if ('boolValue' in entry) value = entry.boolValue;
      else if ('nullValue' in entry) value = null;
      else continue;
      this.set(keys, value);
    }
  }

  private set(keys: Array<string | number>, value: unknown): void {
    let node: Wire | unknown[] = this.value;
    for (let at = 0; at < keys.length - 1; at++) {
      const key = keys[at]!;
      const next = keys[at + 1]!;
      checkIndex(node, key);
      const holder = node as Record<string | number, unknown>;
      if (typeof holder[key] !== 'object' || holder[key] === null) holder[key] = typeof next === 'number' ? [] : {};
      node = holder[key] as Wire | unknown[];
    }
    const last = keys[keys.length - 1]!;
    checkIndex(node, last);
    const holder = node as Record<string | number, unknown>;
    // Pieces of one string are appended.
    holder[last] = typeof value === 'string' && typeof holder[last] === 'string' ? holder[last] + value : value;
  }
}

/**
 * Arrays grow one element at a time: an index past the end (`$.a[1000000000]`) would make a
 * sparse array that serialises to a billion `null`s, so it ends the stream instead.
 */
function checkIndex(node: Wire | unknown[], key: string | number): void {
  if (Array.isArray(node) && typeof key === 'number' && key > node.length)
    throw invalidUpstream(PROTOCOL, 'stream chunk', { path: 'functionCall.partialArgs' });
}
