/**
 * JSON text that repeats one shape with a few leaves changed, read without `JSON.parse`: the
 * events of a stream (a Chat chunk, a Claude `content_block_delta`, a Responses delta with its
 * `sequence_number`) are the same bytes event after event but for the delta's string and a
 * counter, and parsing each whole was the largest share of a translated stream's CPU
 * (tools/bench, `bridge-streams`). A {@link JsonShape} holds the fixed text between those
 * leaves: text that matches it byte for byte around valid literals parses to the shape's tree
 * with those literals at its holes, which is built by copying the tree, not by parsing.
 *
 * Why that is exact: a JSON string or number token replaced by another of its kind leaves every
 * other token, hence the whole tree but that leaf, as it was. What could still differ is a
 * duplicate key that overrides a hole; {@link learnJsonShape} rules that out by parsing the
 * shape once with values of its own at the holes and finding each of them where expected.
 */

type Path = ReadonlyArray<string | number>;
type Container = Record<string, unknown> | unknown[];

/** One leaf that changes between the events of a shape. */
interface Hole {
  path: Path;
  kind: 'string' | 'number';
}

/**
 * How to copy a container: its children that are containers too (each with its own plan), and
 * its children that are holes (each with its slot in the values read). Parallel arrays, walked
 * by index: the copy runs on every event read, and tuples to destructure cost more.
 */
interface CopyPlan {
  array: boolean;
  containerKeys: Array<string | number>;
  containerPlans: CopyPlan[];
  holeKeys: Array<string | number>;
  holeSlots: number[];
}

/** Most holes a shape may have: more leaves changing means the events are not one shape. */
const MAX_HOLES = 4;
/** An integer that JSON and `Number` read alike and that stays exact one above it. */
const SAFE_INTEGER = 2 ** 52;
const NUMBER = /-?(?:0|[1-9][0-9]{0,15})/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids them raw in a string, and this finds them
const CONTROL = /[\u0000-\u001f]/;

/** A learnt event shape: the fixed text around its holes, and a private tree to copy. */
export class JsonShape {
  constructor(
    /** The fixed texts: one before each hole, and the last one after them. */
    private readonly pieces: readonly string[],
    private readonly holes: readonly Hole[],
    /** Parsed from the shape's own text; never handed out, only copied. */
    private readonly tree: Container,
    private readonly plan: CopyPlan,
  ) {}

  /** The holes' values of the text being read; reused (a read is synchronous and copies them out). */
  private readonly values: unknown[] = [];

  /** The value `JSON.parse(text)` gives, when `text` has this shape; otherwise undefined. */
  read(text: string): Record<string, unknown> | undefined {
    const pieces = this.pieces;
    const holes = this.holes;
    const first = pieces[0] as string;
    // Slices compared with `===` (a memory compare): `startsWith` compares character by character,
    // which cost as much as the parse it saves.
    if (text.slice(0, first.length) !== first) return undefined;
    let at = first.length;
    const values = this.values;
    for (let index = 0; index < holes.length; index++) {
      const hole = holes[index] as Hole;
      let end: number;
      if (hole.kind === 'string') {
        end = stringEnd(text, at);
        if (end < 0) return undefined;
        const value = stringValue(text, at, end);
        if (value === undefined) return undefined;
        values[index] = value;
      } else {
        NUMBER.lastIndex = at;
        if (!NUMBER.test(text)) return undefined;
        end = NUMBER.lastIndex;
        const value = Number(text.slice(at, end));
        if (!(Math.abs(value) < SAFE_INTEGER)) return undefined;
        values[index] = value;
      }
      const piece = pieces[index + 1] as string;
      if (text.slice(end, end + piece.length) !== piece) return undefined;
      at = end + piece.length;
    }
    if (at !== text.length) return undefined;
    return copyTree(this.tree, this.plan, values) as Record<string, unknown>;
  }
}

/**
 * The shape `current` (parsed from `text`) shares with `previous` (the event before it): the
 * leaves that differ between them (strings and integers only, at most four) become holes.
 * `'unlike'` when the two trees differ otherwise; undefined when a hole's text cannot be found
 * or the check parse shows a hole is not where the value comes from.
 */
export function learnJsonShape(previous: unknown, current: unknown, text: string): JsonShape | 'unlike' | undefined {
  if (!isContainer(current) || Array.isArray(current)) return 'unlike';
  const holes: Hole[] = [];
  if (!sameSkeleton(previous, current, [], holes)) return 'unlike';
  // The pieces: the text cut around each hole's literal, searched in order after the last one.
  const pieces: string[] = [];
  const sentinels: unknown[] = [];
  const used = new Set<unknown>();
  let cursor = 0;
  for (const hole of holes) {
    const value = valueAt(current, hole.path);
    const literal = JSON.stringify(value);
    const key = hole.path[hole.path.length - 1];
    const lead = typeof key === 'string' ? `${JSON.stringify(key)}:` : '';
    const found = text.indexOf(lead + literal, cursor);
    if (found < 0) return undefined;
    const start = found + lead.length;
    pieces.push(text.slice(cursor, start));
    cursor = start + literal.length;
    sentinels.push(sentinelFor(value, used));
  }
  pieces.push(text.slice(cursor));
  // Parsed with other values at the holes, the text must give exactly those values there and
  // change nothing else: no duplicate key overrides a hole, each literal is a whole token.
  let probe: unknown;
  try {
    probe = JSON.parse(pieces.map((piece, index) => (index < sentinels.length ? piece + JSON.stringify(sentinels[index]) : piece)).join(''));
  } catch {
    return undefined;
  }
  const found: Hole[] = [];
  if (!sameSkeleton(current, probe, [], found) || found.length !== holes.length) return undefined;
  for (let index = 0; index < holes.length; index++) {
    const hole = holes[index] as Hole;
    if (!samePath(hole.path, (found[index] as Hole).path) || valueAt(probe, hole.path) !== sentinels[index]) return undefined;
  }
  const tree = probe as Container;
  return new JsonShape(pieces, holes, tree, planOf(tree, holes, []));
}

/**
 * True when `a` and `b` differ only in string and integer leaves (at most {@link MAX_HOLES}),
 * which are pushed to `holes` in key order. Objects must list the same keys in the same order,
 * none named `__proto__` (a copy by assignment would set a prototype there).
 */
function sameSkeleton(a: unknown, b: unknown, path: Array<string | number>, holes: Hole[]): boolean {
  if (a === b && (typeof a !== 'object' || a === null)) return typeof a !== 'number' || !Object.is(a, -0);
  if (typeof a === 'string' && typeof b === 'string') return addHole(path, 'string', holes);
  if (typeof a === 'number' && typeof b === 'number') {
    if (!Number.isInteger(a) || !Number.isInteger(b) || Object.is(b, -0) || !(Math.abs(b) < SAFE_INTEGER)) return false;
    return addHole(path, 'number', holes);
  }
  if (!isContainer(a) || !isContainer(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) {
      path.push(index);
      const same = sameSkeleton(a[index], b[index], path, holes);
      path.pop();
      if (!same) return false;
    }
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (key !== otherKeys[index] || key === '__proto__') return false;
    path.push(key);
    const same = sameSkeleton(a[key], b[key], path, holes);
    path.pop();
    if (!same) return false;
  }
  return true;
}

function addHole(path: Path, kind: Hole['kind'], holes: Hole[]): boolean {
  if (holes.length === MAX_HOLES) return false;
  holes.push({ path: [...path], kind });
  return true;
}

/** A value of `value`'s kind that is neither `value` nor one already `used`. */
function sentinelFor(value: unknown, used: Set<unknown>): unknown {
  let sentinel: unknown;
  if (typeof value === 'number') {
    sentinel = value + 1;
    while (used.has(sentinel)) sentinel = (sentinel as number) + 1;
  } else {
    // Short and ASCII: the probe is parsed once per learnt shape, and a two-byte string parses slower.
    let count = 0;
    do sentinel = `s${count++}`;
    while (sentinel === value || used.has(sentinel));
  }
  used.add(sentinel);
  return sentinel;
}

/** Index just past the JSON string literal starting at `at` (the closing quote's + 1), or -1. */
function stringEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x22) return -1;
  let quote = text.indexOf('"', at + 1);
  while (quote > 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}

/** The string literal `text[start, end)` as `JSON.parse` reads it, or undefined where it would throw. */
function stringValue(text: string, start: number, end: number): string | undefined {
  const inner = text.slice(start + 1, end - 1);
  if (inner.indexOf('\\') < 0) return CONTROL.test(inner) ? undefined : inner;
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return undefined;
  }
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function valueAt(tree: unknown, path: Path): unknown {
  let node = tree;
  for (const key of path) node = (node as Record<string | number, unknown>)[key];
  return node;
}

function samePath(a: Path, b: Path): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

/** The copy plan of `node`, at `path` in the tree: which children to copy, which to fill from `holes`. */
function planOf(node: Container, holes: readonly Hole[], path: Array<string | number>): CopyPlan {
  const plan: CopyPlan = { array: Array.isArray(node), containerKeys: [], containerPlans: [], holeKeys: [], holeSlots: [] };
  const keys: Array<string | number> = Array.isArray(node) ? node.map((_, index) => index) : Object.keys(node);
  for (const key of keys) {
    const child = (node as Record<string | number, unknown>)[key];
    path.push(key);
    if (isContainer(child)) {
      plan.containerKeys.push(key);
      plan.containerPlans.push(planOf(child, holes, path));
    } else {
      const slot = holes.findIndex((hole) => samePath(hole.path, path));
      if (slot >= 0) {
        plan.holeKeys.push(key);
        plan.holeSlots.push(slot);
      }
    }
    path.pop();
  }
  return plan;
}

/** A fresh copy of `node`, every container in it new (spread keeps the key order), `values` at its holes. */
function copyTree(node: Container, plan: CopyPlan, values: readonly unknown[]): Container {
  const copy = (plan.array ? (node as unknown[]).slice() : { ...node }) as Record<string | number, unknown>;
  const containerKeys = plan.containerKeys;
  for (let index = 0; index < containerKeys.length; index++) {
    const key = containerKeys[index] as string | number;
    copy[key] = copyTree((node as Record<string | number, unknown>)[key] as Container, plan.containerPlans[index] as CopyPlan, values);
  }
  const holeKeys = plan.holeKeys;
  for (let index = 0; index < holeKeys.length; index++) copy[holeKeys[index] as string | number] = values[plan.holeSlots[index] as number];
  return copy as Container;
}
