/**
 * Gemini parses requests as proto3 JSON, which accepts both `systemInstruction` and
 * `system_instruction`. Decoders read a field by its camelCase name through {@link field}, which
 * falls back to the snake_case spelling; encoders write camelCase.
 */
type Wire = Record<string, unknown>;

const snakeCache = new Map<string, string>();

/** `fooBarBaz` -> `foo_bar_baz` (the same string when `name` has no capital). */
export function snakeCase(name: string): string {
  let snake = snakeCache.get(name);
  if (snake === undefined) {
    snake = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    snakeCache.set(name, snake);
  }
  return snake;
}

/**
 * The value of `object[name]`, or of its snake_case spelling. Decoders read absent optional fields
 * on every part, so the fallback costs one cache lookup, no regular expression.
 */
export function field(object: Wire, name: string): unknown {
  const value = object[name];
  if (value !== undefined) return value;
  const snake = snakeCase(name);
  return snake === name ? undefined : object[snake];
}

/**
 * The keys of `object` that are neither `known` (camelCase names) nor their snake_case spelling,
 * with their values; `undefined` when there are none.
 */
export function unknownFields(object: Wire, known: ReadonlySet<string>): Wire | undefined {
  let rest: Wire | undefined;
  for (const key in object) {
    if (known.has(key) || (key.includes('_') && known.has(camelCase(key)))) continue;
    (rest ??= {})[key] = object[key];
  }
  return rest;
}

/** `foo_bar` -> `fooBar`. */
export function camelCase(name: string): string {
  return name.includes('_') ? name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()) : name;
}

/**
 * The holder to read `name` from with the wire readers: `object` itself, or, when only the
 * snake_case spelling is present, a one-key holder of that value under `name`, so that errors
 * name the camelCase path either way (allocates only for snake_case input).
 */
export function camel(object: Wire, name: string): Wire {
  if (object[name] !== undefined) return object;
  const spelled = snakeCase(name);
  const snake = spelled === name ? undefined : object[spelled];
  return snake === undefined ? object : { [name]: snake };
}
