import { jsonString } from '@llm/core/kit';

/**
 * JSON already written, for the stream encoder's done events: a Responses stream repeats an
 * item's whole text in its `.done` events, its `content_part.done`, its `output_item.done` and
 * the terminal `response.completed`, and serialising that text afresh for each was most of the
 * encoder's cost at a block's end (tools/bench, `bridge-streams`). Written once, it is spliced
 * into the others.
 */
export class WrittenJson {
  constructor(
    /** The value's JSON text, as `JSON.stringify` writes it. */
    readonly json: string,
  ) {}
}

/**
 * `JSON.stringify(object)` of a plain object whose values may be {@link WrittenJson} (spliced in as
 * they are): keys in their order, values `JSON.stringify` leaves out (undefined, functions,
 * symbols) left out.
 */
export function objectJson(object: Record<string, unknown>): string {
  let text = '';
  for (const key of Object.keys(object)) {
    const value = object[key];
    // Keys and most values are plain strings: `jsonString` writes those without the serializer.
    const json = value instanceof WrittenJson ? value.json : typeof value === 'string' ? jsonString(value) : (JSON.stringify(value) as string | undefined);
    if (json === undefined) continue;
    text += `${text === '' ? '{' : ','}${jsonString(key)}:${json}`;
  }
  return text === '' ? '{}' : `${text}}`;
}

/** The JSON array of values already written. */
export function arrayJson(items: readonly string[]): WrittenJson {
  return new WrittenJson(`[${items.join(',')}]`);
}
